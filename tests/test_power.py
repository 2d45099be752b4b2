"""The power budget and battery gauge tables (host_tools/hardware/power.py): up to date in
hardware/README.md, following the firmware's settings and screens, and the gauge column is what
the Pico's own battery_mv() computes."""

from host_tools.hardware import power
from test_device_glue import board  # noqa: F401  (the fake Pico: machine, ssd1306, the clock)


def test_the_tables_in_the_readme_are_up_to_date():
    text = power.README.read_text(encoding="utf-8")
    assert power.render_readme(text) == text, "run `make power`"


def test_the_budget_follows_the_firmware_settings_and_screens():
    import prefs

    s = power.firmware_settings()
    assert (
        s["contrast"] == prefs.DEFAULT_SETTINGS["contrast"] and s["off_s"] == prefs.DEFAULT_SETTINGS["off_s"]
    )
    fr = power.lit_fractions()
    assert len(fr) >= 20 and all(0 < f < 1 for f in fr.values())
    playing, dimmed, off, cut = (ma for _, ma, _ in power.states())
    assert playing > dimmed > off > cut > 0
    # a brighter screen costs more, a dimmer one less
    assert power.oled_ma(0.5, 255) > power.oled_ma(0.5, 127) > power.oled_ma(0.1, 127)


def test_the_gauge_column_is_what_the_pico_reads(board, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    import machine

    from device import pico

    hw = pico.build()
    for v in (4.2, 3.7, 3.3):
        raw = power.adc_raw(v)
        monkeypatch.setattr(machine.ADC, "read_u16", lambda self, raw=raw: raw)
        assert hw.battery_mv() == power.reading_mv(v)
