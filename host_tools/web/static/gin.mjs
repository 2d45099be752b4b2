// The handheld in a browser: load MicroPython's WebAssembly port and the firmware's own .mpy
// files, then run the App's loop one step at a time. Everything the App touches goes through
// webhw.py; this file is the page's side of it: the canvas, the buttons, WebAudio, localStorage.
//
// The build (host_tools/web/build.py) fills the "gin-build" JSON: file sizes and versions, the
// firmware bundle's table of contents, the key map (from host_tools/simulator/keys.py) and the palettes
// (from host_tools/hw/oled_view.py), so none of those facts is written down twice.

const BUILD = JSON.parse(document.getElementById("gin-build").textContent);
const W = 128;
const H = 64;
const PAGE_PREFS = "gin-web/";  // the page's own settings (palette, mute), apart from the game's saves

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
const ctx = canvas.getContext("2d", { willReadFrequently: true });
const params = new URLSearchParams(location.search);

// What the tests and the measurements read (window.gin).
const gin = {
  ready: false,
  error: null,
  frames: 0,
  steps: 0,
  stepMs: 0,
  frameSteps: 0,  // steps that drew a frame, and their time (the App's drawing and the canvas's)
  frameStepMs: 0,
  renderMs: 0,  // of which the page's part: hex to pixels to the canvas
  tones: [],  // every [freq, ms] the App asked for
  sounded: 0,  // how many of them the speakers played (not muted)
  firstFrameMs: null,
  loadedBytes: 0,
  scale: 4,
  palette: "white",
  runner: null,
  press: null,
  frameHex: null,
  inputAt: null,  // when the last touch, click or key that is still to show happened (event.timeStamp)
  inputToFrame: [],  // ms from each input to the canvas drawn after it (the browser tests' figure)
};
window.gin = gin;

// ------------------------------------------------------------------ page prefs
function pref(name, fallback) {
  try {
    const v = localStorage.getItem(PAGE_PREFS + name);
    return v === null ? fallback : v;
  } catch {
    return fallback;
  }
}

function setPref(name, value) {
  try {
    localStorage.setItem(PAGE_PREFS + name, value);
  } catch {
    // storage refused: the choice lasts until the tab closes
  }
}

function storage() {
  try {
    const s = window.localStorage;
    const probe = PAGE_PREFS + "probe";
    s.setItem(probe, "1");
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ the glass
const frame = new Uint8Array(W * H / 8);
const glass = document.createElement("canvas");
glass.width = W;
glass.height = H;
const glassCtx = glass.getContext("2d");
const image = glassCtx.createImageData(W, H);
let contrast = 127;
let powered = true;

function lit(rgb, level) {
  // oled_view.dimmed: the contrast register dims lit pixels towards the unlit colour
  const u = BUILD.unlit;
  return [0, 1, 2].map((i) => Math.round(u[i] + (rgb[i] - u[i]) * level));
}

function render() {
  const p = BUILD.palettes[gin.palette] || BUILD.palettes.white;
  const c = BUILD.contrast;
  const level = c.floor + (1 - c.floor) * (Math.max(0, Math.min(255, contrast)) / 255);
  const top = lit(p.top, level);
  const low = lit(p.lit, level);
  const u = BUILD.unlit;
  const d = image.data;
  for (let y = 0; y < H; y++) {
    const on = y < p.split_row ? top : low;
    const row = (y >> 3) * W;
    const bit = 1 << (y & 7);
    for (let x = 0; x < W; x++) {
      const px = powered && frame[row + x] & bit ? on : u;
      const i = (y * W + x) * 4;
      d[i] = px[0];
      d[i + 1] = px[1];
      d[i + 2] = px[2];
      d[i + 3] = 255;
    }
  }
  glassCtx.putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(glass, 0, 0, W * gin.scale, H * gin.scale);
}

function fitScale() {
  // The largest whole number of device pixels per panel pixel that fits the case (2..16): crisp
  // on a phone's dense screen too. gin.scale is that number (the canvas's own pixels per pixel).
  // The height counts where style.css caps it (a phone held sideways).
  const dpr = window.devicePixelRatio || 1;
  const room = (canvas.parentElement.clientWidth - 24) * dpr;
  const tall = parseFloat(getComputedStyle(canvas).maxHeight) * dpr;  // NaN: no cap
  const fit = Math.min(Math.floor(room / W), tall >= 0 ? Math.floor(tall / H) : 16);
  const s = Math.max(2, Math.min(16, fit));
  if (s !== gin.scale || canvas.width !== W * s) {
    gin.scale = s;
    canvas.width = W * s;
    canvas.height = H * s;
    canvas.style.width = (W * s) / dpr + "px";
    canvas.style.height = (H * s) / dpr + "px";
    render();
  }
}

// ------------------------------------------------------------------ sound
let audio = null;
let muted = pref("muted", "0") === "1";

function prepareAudio() {
  // Building an AudioContext blocks the page for tens of ms (77 ms in head-less Chromium): done
  // once the title is up, in idle time, it is not the first key's.  It waits suspended until a
  // press resumes it (browsers start sound only after a gesture).
  if (audio === null && !muted && window.AudioContext) audio = new AudioContext();
}

function unlockAudio() {
  prepareAudio();  // a key before the idle moment came
  if (audio && audio.state === "suspended") audio.resume();  // asynchronous: nothing waits
}

function tone(freq, ms) {
  if (gin.tones.length < 1000) gin.tones.push([freq, ms]);
  if (muted || audio === null) return;
  const t = audio.currentTime;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "square";  // a piezo on a PWM pin
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.06, t);
  gain.gain.setValueAtTime(0, t + ms / 1000);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + ms / 1000 + 0.02);
  gin.sounded++;
}

function showMute() {
  const b = $("mute");
  b.textContent = muted ? "Sound: off" : "Sound: on";
  b.setAttribute("aria-pressed", String(muted));
}

// ------------------------------------------------------------------ the page object webhw.py calls
const page = {
  show(hex) {
    const t0 = performance.now();
    for (let i = 0; i < frame.length; i++) {
      frame[i] = parseInt(hex.substr(i * 2, 2), 16);
    }
    gin.frameHex = hex;
    gin.frames++;
    if (gin.inputAt !== null) {
      if (gin.inputToFrame.length < 1000) gin.inputToFrame.push(performance.now() - gin.inputAt);
      gin.inputAt = null;
    }
    if (gin.firstFrameMs === null) {
      gin.firstFrameMs = performance.now();
      $("loading").hidden = true;
    }
    render();
    gin.renderMs += performance.now() - t0;
  },
  contrast(v) {
    contrast = v;
    render();
  },
  power(on) {
    powered = on;
    $("asleep").hidden = on;  // the device just goes dark; a page says why
    render();
  },
  tone,
  led(on) {
    $("led").classList.toggle("on", on);
  },
  reload() {
    location.reload();
  },
};

// ------------------------------------------------------------------ the loop
let timer = null;

function step() {
  timer = null;
  if (gin.runner === null) return;
  const t0 = performance.now();
  const f0 = gin.frames;
  let ms;
  try {
    ms = gin.runner.step();
  } catch (e) {
    fail("The game stopped: " + (e.message || e));
    return;
  }
  const dt = performance.now() - t0;
  gin.stepMs += dt;
  gin.steps++;
  if (gin.frames !== f0) {
    gin.frameSteps++;
    gin.frameStepMs += dt;
  }
  timer = setTimeout(step, Math.max(1, ms | 0));
}

function stepNow() {
  // An input: the App's step runs at once, inside the input's own task, rather than from a
  // timer: while a finger is down Chromium holds timers back (up to ~100 ms) in case a scroll
  // begins, so a timer made a tap show ten times later than a click.
  if (timer !== null) {
    clearTimeout(timer);
    timer = null;
  }
  step();
}

function press(button, down, hold, at) {
  if (gin.runner !== null) {
    const f0 = gin.frames;
    if (down && gin.inputAt === null) gin.inputAt = at === undefined ? performance.now() : at;
    gin.runner.press(button, down, hold || 0);
    stepNow();
    if (gin.frames === f0) gin.inputAt = null;  // it changed nothing on the screen: no figure
  }
  unlockAudio();  // after the frame: the sound's start never delays the picture
}
gin.press = press;

// ------------------------------------------------------------------ keyboard and buttons
const keysDown = new Map();  // KeyboardEvent.code -> button held by that key

function keyToken(e) {
  const arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  const named = { " ": "space", Enter: "enter", Escape: "esc", Backspace: "backspace", F1: "f1" };
  if (e.key in arrows) return (e.shiftKey ? "S-" : "") + arrows[e.key];
  if (e.key in named) return named[e.key];
  return e.key;
}

function onKeyDown(e) {
  if (e.ctrlKey || e.altKey || e.metaKey) return;
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  const tok = keyToken(e);
  const command = BUILD.commands[tok];
  if (command) {
    e.preventDefault();
    if (!e.repeat) runCommand(command);
    return;
  }
  const hit = BUILD.keys[tok];
  if (!hit) return;
  e.preventDefault();
  if (e.repeat) return;  // the key is held: the button stays down until keyup
  const [button, hold] = hit;
  if (hold > BUILD.tap_ms) {
    press(button, true, hold, e.timeStamp);  // Shift: a long press of its own length, as in the terminal
  } else {
    keysDown.set(e.code, button);
    press(button, true, 0, e.timeStamp);
  }
  flash(button);
}

function onKeyUp(e) {
  const button = keysDown.get(e.code);
  if (button === undefined) return;
  keysDown.delete(e.code);
  press(button, false, 0);
}

function flash(button) {
  const el = document.querySelector(`[data-button="${button}"]`);
  if (el) {
    el.classList.add("down-now");
    setTimeout(() => el.classList.remove("down-now"), 120);
  }
}

function wireButtons() {
  for (const el of document.querySelectorAll("[data-button]")) {
    const b = parseInt(el.dataset.button, 10);
    let down = false;
    const release = () => {
      if (!down) return;
      down = false;
      el.classList.remove("down-now");
      press(b, false, 0);
    };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (el.setPointerCapture) el.setPointerCapture(e.pointerId);
      down = true;
      el.classList.add("down-now");
      press(b, true, 0, e.timeStamp);
    });
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("lostpointercapture", release);
    el.addEventListener("contextmenu", (e) => e.preventDefault());  // a long touch is a long press
    el.addEventListener("keydown", (e) => {
      // Space/Enter on a focused button: the game's keys, not a click
      if (e.key === " " || e.key === "Enter") e.preventDefault();
    });
  }
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", () => {
    keysDown.clear();
    if (gin.runner !== null) gin.runner.release_all();
  });
}

function runCommand(name) {
  if (name === "help") toggleHelp();
  else if (name === "screenshot") savePicture();
}

function toggleHelp() {
  const h = $("help");
  h.hidden = !h.hidden;
  $("help-button").setAttribute("aria-expanded", String(!h.hidden));
}

function savePicture() {
  const a = document.createElement("a");
  a.download = "gin-handheld.png";
  a.href = canvas.toDataURL("image/png");
  a.click();
}

function wireOptions() {
  const sel = $("palette");
  const wanted = params.get("palette") || pref("palette", "white");
  gin.palette = wanted in BUILD.palettes ? wanted : "white";
  sel.value = gin.palette;
  sel.addEventListener("change", () => {
    gin.palette = sel.value;
    setPref("palette", sel.value);
    render();
    sel.blur();
  });
  showMute();
  $("mute").addEventListener("click", (e) => {
    muted = !muted;
    setPref("muted", muted ? "1" : "0");
    showMute();
    if (!muted) unlockAudio();
    e.currentTarget.blur();
  });
  $("shot").addEventListener("click", (e) => {
    savePicture();
    e.currentTarget.blur();
  });
  $("help-button").addEventListener("click", (e) => {
    toggleHelp();
    e.currentTarget.blur();
  });
  window.addEventListener("resize", fitScale);
}

// ------------------------------------------------------------------ loading
function status(text, fraction) {
  $("status").textContent = text;
  if (fraction !== undefined) $("progress").value = Math.round(fraction * 100);
}

function fail(text) {
  gin.error = text;
  gin.runner = null;
  const box = $("loading");
  box.hidden = false;
  box.classList.add("failed");
  $("progress").hidden = true;
  status(text);
  console.error(text);
}

async function fetchWithProgress(name, onBytes) {
  const f = BUILD.files[name];
  const r = await fetch(name + "?v=" + f.v);
  if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
  if (!r.body || !r.body.getReader) {
    const buf = new Uint8Array(await r.arrayBuffer());
    onBytes(buf.length);
    return buf;
  }
  const reader = r.body.getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    n += value.length;
    onBytes(value.length);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function unpack(FS, bundle) {
  // fw.bin: the .mpy files back to back; BUILD.modules says where each one is.
  for (const [path, offset, size] of BUILD.modules) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    FS.mkdirTree(dir);
    FS.writeFile(path, bundle.subarray(offset, offset + size));
  }
}

async function boot() {
  fitScale();
  if (location.protocol === "file:") {
    fail("Open this page through a web server (make web), not as a file: browsers don't load WebAssembly from file://.");
    return;
  }
  const total = BUILD.files["micropython.wasm"].size + BUILD.files["fw.bin"].size;
  const got = (n) => {
    gin.loadedBytes += n;
    status(`Loading MicroPython and the firmware… ${Math.round(gin.loadedBytes / 1024)} of ${Math.round(total / 1024)} KB`,
      0.9 * gin.loadedBytes / total);
  };
  status("Loading MicroPython and the firmware…", 0);
  const [mod, wasm, bundle] = await Promise.all([
    import("./micropython.mjs?v=" + BUILD.files["micropython.mjs"].v),
    fetchWithProgress("micropython.wasm", got),
    fetchWithProgress("fw.bin", got),
  ]);
  status("Starting MicroPython…", 0.92);
  const wasmUrl = URL.createObjectURL(new Blob([wasm], { type: "application/wasm" }));
  const mp = await mod.loadMicroPython({
    url: wasmUrl,
    heapsize: BUILD.heap_bytes,
    pystack: BUILD.pystack_words,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  URL.revokeObjectURL(wasmUrl);
  unpack(mp.FS, bundle);
  status("Starting the game…", 0.96);
  mp.runPython(`import sys\nsys.path[:0] = ${JSON.stringify(BUILD.sys_path)}`);
  const webhw = mp.pyimport("webhw");
  const seed = params.has("seed") ? parseInt(params.get("seed"), 10) : -1;
  const store = storage();
  if (store === null) {
    $("note").textContent = "This browser keeps no data for this page: the game is not saved when the tab closes.";
    $("note").hidden = false;
  }
  gin.runner = webhw.start(page, store, Number.isFinite(seed) ? seed : -1);
  gin.ready = true;
  step();
  (window.requestIdleCallback || setTimeout)(prepareAudio);
}

wireButtons();
wireOptions();
boot().catch((e) => fail("The game could not start: " + (e && e.message ? e.message : e)));
