"""The rules and settings menus (loaded only when visited: RAM is scarce at the title)."""

from gin.rules import DEALER_NAMES, FIRST_DEALER_NAMES, GAME_WINNER_NAMES, OFFER_NAMES, PRESET_TITLES
from ui import keys
from ui.draw import choice_row
from ui.menus import Menu, cycle, step_in
from ui.screens import RULES, RULES_TEXT, SETTINGS, TITLE

# --- rules --------------------------------------------------------------------------------

TARGETS = (50, 75, 100, 125, 150, 200, 250, 300, 500)
# (row name, RuleSet field, value names (gin.rules') or None for on/off)
_RULE_ROWS = (
    ("Preset", "preset", None),
    ("Target", "target", None),
    ("Straight gin", "straight", None),
    ("Oklahoma", "oklahoma", None),
    ("Spade x2", "oklahoma_spade_double", None),
    ("Hollywood", "hollywood", None),
    ("Big gin", "big_gin", None),
    ("Gin forced", "gin_forced", None),
    ("Upcard", "upcard_offer", OFFER_NAMES),
    ("1st deal", "first_dealer", FIRST_DEALER_NAMES),
    ("Winner", "game_winner", GAME_WINNER_NAMES),
    ("Next deal", "next_dealer", DEALER_NAMES),
)


class RulesMenu(Menu):
    sid = RULES
    title = "RULES \u00b7 for new games"

    def __init__(self, app, arg):
        from gin.rules import RuleSet

        self.sel = 0
        try:
            self.rs = RuleSet.from_bytes(app.settings["rules"])
        except Exception:
            self.rs = RuleSet()

    def rows(self, app):
        rs = self.rs
        out = []
        for name, field, names in _RULE_ROWS:
            v = getattr(rs, field)
            if field == "preset":
                t = PRESET_TITLES[v]
            elif field == "target":
                t = "%d" % v
            elif field == "big_gin":
                t = ("%d" % rs.big_gin_bonus) if v else "off"
            elif names is None:
                t = "on" if v else "off"
            else:
                t = names[v].replace("_", " ")  # an identifier as words: "dealer_plays"
            out.append(choice_row(name, t))
        out.append("Show all rules")
        return out

    def pick(self, app, i, d):
        rs = self.rs
        if i == len(_RULE_ROWS):
            if not d:
                app.goto(RULES_TEXT, (rs, RULES))
            return
        name, field, names = _RULE_ROWS[i]
        v = getattr(rs, field)
        if field == "preset":
            self.rs = rs.copy(preset=cycle(v, d, 4))
        elif field == "target":
            self.rs = rs.copy(target=step_in(TARGETS, v, d))
        elif names is None:
            self.rs = rs.copy(**{field: not v})
        else:
            self.rs = rs.copy(**{field: cycle(v, d, len(names))})
        # saved as it changes (docs/SAVES.md): a power cut in the menu keeps it
        app.set_setting("rules", self.rs.to_bytes())

    def back(self, app):
        app.set_setting("rules", self.rs.to_bytes())
        app.goto(TITLE, "rules")

    def legend_slots(self, app):
        return [(keys.UPDN_L, "move"), (keys.LR_L, "change"), (keys.MENU_L, "done")]


# --- settings -------------------------------------------------------------------------------

CONTRASTS = (1, 40, 80, 127, 190, 255)
DIMS = (15, 30, 60, 120, 300, 0)
OFFS = (60, 120, 300, 600, 1800)


def _secs(s):
    if s == 0:
        return "never"
    if s < 60:
        return "%ds" % s
    return "%dm" % (s // 60)


class SettingsMenu(Menu):
    sid = SETTINGS
    title = "SETTINGS"

    def items(self, app):
        out = ["contrast", "dim", "off", "sound", "left", "hints"]
        if app.battery_mv() is not None:
            out.append("battery")
        return out

    def rows(self, app):
        s = app.settings
        out = []
        for it in self.items(app):
            if it == "contrast":
                k = 0
                for i in range(len(CONTRASTS)):
                    if s["contrast"] >= CONTRASTS[i]:
                        k = i
                out.append(choice_row("Light", "\u25a0" * (k + 1) + "\u25a1" * (5 - k)))
            elif it == "dim":
                out.append(choice_row("Dim after", _secs(s["dim_s"])))
            elif it == "off":
                out.append(choice_row("Off after", _secs(s["off_s"])))
            elif it == "sound":
                out.append(choice_row("Sound", "on" if s["sound"] else "off"))
            elif it == "left":
                out.append(choice_row("Hand", "left" if s["left"] else "right"))
            elif it == "hints":
                out.append(choice_row("Hints", "on" if s["hints"] else "off"))
            else:
                mv = app.battery_mv()
                out.append("Battery %d.%02dV" % (mv // 1000, (mv % 1000) // 10))
        return out

    def pick(self, app, i, d):
        it = self.items(app)[i]
        s = app.settings
        if it == "contrast":
            k = 0
            for j in range(len(CONTRASTS)):
                if s["contrast"] >= CONTRASTS[j]:
                    k = j
            k += d if d else 1
            if k < 0:
                k = 0
            if k >= len(CONTRASTS):
                k = len(CONTRASTS) - 1 if d else 0
            # each saved as it changes (docs/SAVES.md): a power cut in the menu keeps it
            app.set_setting("contrast", CONTRASTS[k])
        elif it == "dim":
            app.set_setting("dim_s", step_in(DIMS, s["dim_s"], d))
        elif it == "off":
            app.set_setting("off_s", step_in(OFFS, s["off_s"], d))
        elif it in ("sound", "left", "hints"):
            app.set_setting(it, not s[it])
            if it == "left":
                app.say("Buttons swapped" if s[it] else "Buttons as labelled")

    def back(self, app):
        app.save_settings()
        app.goto(TITLE, "settings")

    def legend_slots(self, app):
        return [(keys.UPDN_L, "move"), (keys.LR_L, "change"), (keys.MENU_L, "done")]
