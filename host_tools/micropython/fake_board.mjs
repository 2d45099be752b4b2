// The engine of host_tools/micropython/fake_board.py: a MicroPython board's serial REPL, in Node.
//
//   node fake_board.mjs MICROPYTHON_MJS [--run-main] [--heapsize BYTES] [--flash DIR]
//                       [--flash-blocks N] [--version X.Y.Z]
//
// It speaks the REPL a Pico speaks over USB, closely enough for mpremote: the
// friendly REPL (MicroPython's own event-driven one), the raw REPL, raw-paste
// mode with flow control, soft reset (Ctrl-D) that reboots the interpreter but
// keeps the flash, and a hard reset from machine.reset().  The flash is an
// in-memory directory mounted at "/" through a small VFS that turns the
// WebAssembly port's errno numbers into MicroPython's.
//
// Everything here is synchronous on purpose: a board blocks while it runs
// Python, and code that reads sys.stdin (mpremote mount) must see the host's
// next bytes as they arrive.  So stdin is read with readSync, never by events.
//
// Framing between this script and fake_board.py (stdin and stdout are pipes):
//   frame = 1 type byte + 4-byte little-endian length + payload
//   in:  D serial bytes from the host | S snapshot request | P power cycle | Q quit
//        | Y sync (echoed back once all input before it has been handled)
//   out: D serial bytes to the host | E event line for the log | H hard reset
//        happened (the USB link drops) | F flash snapshot (JSON {path: base64}) | Y sync

import fs from "fs";

const args = process.argv.slice(2);
const MODULE_PATH = args[0];
const RUN_MAIN = args.includes("--run-main");
const hi = args.indexOf("--heapsize");
const HEAPSIZE = hi >= 0 ? parseInt(args[hi + 1], 10) : 1024 * 1024;
const fi = args.indexOf("--flash");
const FLASH_DIR = fi >= 0 ? args[fi + 1] : null; // a host folder to start the flash from
const bi = args.indexOf("--flash-blocks");
const FS_BLOCKS = bi >= 0 ? parseInt(args[bi + 1], 10) : 352; // a Pico's 1408 KiB littlefs, in 4 KiB blocks
const vi = args.indexOf("--version");
const VERSION = vi >= 0 ? args[vi + 1] : null; // pretend to be an older MicroPython (sys.implementation)
const { loadMicroPython } = await import(MODULE_PATH);
const { rom, older } = await import("./fake_board_rom.mjs");

const FLASH = "/flash";
const PASTE_WINDOW = 128;
const BANNER_RAW = "raw REPL; CTRL-B to exit\r\n";

// ------------------------------------------------------------------ framed pipes
const inHeader = Buffer.alloc(5);
let stdinEOF = false;

function readExact(buf) {
  let got = 0;
  while (got < buf.length) {
    let n;
    try {
      n = fs.readSync(0, buf, got, buf.length - got, null);
    } catch (e) {
      if (e.code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      if (e.code === "EOF") n = 0;
      else throw e;
    }
    if (n === 0) {
      stdinEOF = true;
      return false;
    }
    got += n;
  }
  return true;
}

function readFrame() {
  if (!readExact(inHeader)) return null;
  const len = inHeader.readUInt32LE(1);
  const payload = Buffer.alloc(len);
  if (len && !readExact(payload)) return null;
  return { type: String.fromCharCode(inHeader[0]), payload };
}

function writeFrame(type, payload) {
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32LE(payload.length, 1);
  const all = Buffer.concat([head, payload]);
  let off = 0;
  while (off < all.length) {
    try {
      off += fs.writeSync(1, all, off, all.length - off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}

let outBytes = [];
function out(data) {
  if (typeof data === "string") data = Buffer.from(data, "latin1");
  for (const b of data) outBytes.push(b);
  if (outBytes.length >= 4096) flushOut();
}
function flushOut() {
  if (outBytes.length) {
    writeFrame("D", Buffer.from(outBytes));
    outBytes = [];
  }
}
function event(text) {
  flushOut();
  writeFrame("E", Buffer.from(text, "utf8"));
}

// ------------------------------------------------------------------ the serial input
let serial = Buffer.alloc(0);
let serialPos = 0;
const deferred = []; // control frames that arrived while Python was running

function handleControl(f, canDefer) {
  if (f.type === "S") {
    writeFrame("F", Buffer.from(JSON.stringify(snapshot()), "utf8"));
  } else if (f.type === "Y") {
    flushOut();
    writeFrame("Y", f.payload); // everything sent before it has been handled
  } else if (f.type === "Q") {
    flushOut();
    process.exit(0);
  } else if (canDefer) {
    deferred.push(f);
  } else {
    return f;
  }
  return null;
}

// Next byte from the host; null at end of input.  Serves snapshot requests at once
// (also while Python blocks on stdin) and hands other control frames to the caller.
function nextByte(inPython) {
  while (serialPos >= serial.length) {
    flushOut();
    if (!inPython && deferred.length) return deferred.shift();
    const f = readFrame();
    if (f === null) return null;
    if (f.type === "D") {
      serial = f.payload;
      serialPos = 0;
    } else {
      const left = handleControl(f, inPython);
      if (left) return left;
    }
  }
  return serial[serialPos++];
}

// ------------------------------------------------------------------ the board
class BoardReset extends Error {
  constructor(kind) {
    super("board " + kind + " reset");
    this.kind = kind;
  }
}

let mp = null;
let mode = "friendly"; // or "raw"
let carried = {}; // flash contents across reboots: path -> Uint8Array

function walk(FS, dir, prefix, files) {
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const p = dir + "/" + name;
    const rel = prefix ? prefix + "/" + name : name;
    if (FS.isDir(FS.stat(p).mode)) {
      files[rel + "/"] = null;
      walk(FS, p, rel, files);
    } else {
      files[rel] = FS.readFile(p);
    }
  }
}

function flashFiles() {
  if (!mp) return carried;
  const files = {};
  walk(mp.FS, FLASH, "", files);
  return files;
}

function snapshot() {
  const files = flashFiles();
  const res = {};
  for (const k of Object.keys(files)) res[k] = files[k] === null ? null : Buffer.from(files[k]).toString("base64");
  return res;
}

function loadFlash(files) {
  const FS = mp.FS;
  const keys = Object.keys(files).sort();
  for (const k of keys) {
    const parts = k.replace(/\/$/, "").split("/");
    let d = FLASH;
    for (let i = 0; i < parts.length - (files[k] === null ? 0 : 1); i++) {
      d += "/" + parts[i];
      try {
        FS.mkdir(d);
      } catch (e) {
        /* exists */
      }
    }
    if (files[k] !== null) FS.writeFile(FLASH + "/" + k, files[k]);
  }
}

const stdinFn = () => {
  const b = nextByte(true);
  if (b === null || typeof b !== "number") return null;
  return b;
};
const stdoutFn = (bytes) => {
  out(Buffer.from(bytes));
  if (bytes.includes(10)) flushOut(); // a console sees a running program's lines as they come
};

// What the board runs at every boot (fake_board_rom.mjs): the ROM, and an older MicroPython's sys.
const ROM = rom(FLASH, FS_BLOCKS);
const OLDER = older;

function usedBlocks() {
  if (!mp) return 2;
  const FS = mp.FS;
  let blocks = 2; // the superblock pair
  const walkSizes = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const st = FS.stat(dir + "/" + name);
      if (FS.isDir(st.mode)) {
        blocks += 2; // a directory's metadata pair
        walkSizes(dir + "/" + name);
      } else blocks += Math.max(1, Math.ceil(st.size / 4096));
    }
  };
  walkSizes(FLASH);
  return blocks;
}

async function boot(kind) {
  if (mp) carried = flashFiles();
  mp = await loadMicroPython({ heapsize: HEAPSIZE, linebuffer: false, stdin: stdinFn, stdout: stdoutFn, stderr: stdoutFn });
  try {
    mp.FS.mkdir(FLASH);
  } catch (e) {
    /* exists */
  }
  loadFlash(carried);
  mp.registerJsModule("_board", {
    reset: () => {
      throw new BoardReset("hard");
    },
    soft_reset: () => {
      throw new BoardReset("soft");
    },
    used_blocks: () => usedBlocks(),
    event: (text) => event(String(text)),
  });
  mp.runPython(ROM);
  if (VERSION) mp.runPython(OLDER(VERSION));
  event("boot " + kind);
  runFile("boot.py");
  if (mode === "friendly") {
    if (RUN_MAIN) runFile("main.py");
    else if (exists("main.py")) event("main.py not run (start with --run-main)");
  }
  if (mode === "raw") out(BANNER_RAW + ">");
  else mp.replInit();
}

function exists(name) {
  try {
    mp.FS.stat(FLASH + "/" + name);
    return true;
  } catch (e) {
    return false;
  }
}

function runFile(name) {
  if (!exists(name)) return;
  event("run " + name);
  try {
    mp.runPython("exec(compile(open(" + JSON.stringify(name) + ").read(), " + JSON.stringify(name) + ", 'exec'))");
  } catch (e) {
    if (e instanceof BoardReset) throw e;
    out(String(e.message || e).replace(/\n/g, "\r\n"));
  }
}

// Run source in __main__ the way the raw REPL does: output, EOF, error text, EOF.
function execRaw(src) {
  const first = src.split("\n")[0].slice(0, 100);
  event("exec " + src.length + " " + first);
  let err = "";
  try {
    mp.runPython(src);
  } catch (e) {
    if (e instanceof BoardReset) throw e;
    if (e.name === "PythonError") {
      if (e.type !== "SystemExit") err = e.message;
    } else {
      err = "Traceback (most recent call last):\nRuntimeError: " + (e.message || e) + "\n";
    }
  }
  out("\x04" + err + "\x04");
}

async function reboot(kind) {
  flushOut();
  if (kind === "hard") {
    // The USB link goes down with the chip: the host loses this connection.
    writeFrame("H", Buffer.alloc(0));
    mode = "friendly";
    event("hard reset");
  } else {
    out("MPY: soft reboot\r\n");
    event("soft reset");
  }
  for (;;) {
    try {
      await boot(kind);
      return;
    } catch (e) {
      if (!(e instanceof BoardReset)) throw e;
      // boot.py or main.py reset the board: a real board would loop; stop at the REPL.
      event("reset requested during boot: staying at the REPL");
      if (mode === "raw") out(BANNER_RAW + ">");
      else mp.replInit();
      return;
    }
  }
}

// ------------------------------------------------------------------ the REPL loop
function readHostDir(dir, prefix, files) {
  for (const name of fs.readdirSync(dir).sort()) {
    const p = dir + "/" + name;
    const rel = prefix ? prefix + "/" + name : name;
    if (fs.statSync(p).isDirectory()) {
      files[rel + "/"] = null;
      readHostDir(p, rel, files);
    } else {
      files[rel] = new Uint8Array(fs.readFileSync(p));
    }
  }
}

async function main() {
  carried = {};
  if (FLASH_DIR) readHostDir(FLASH_DIR, "", carried);
  await boot("power-on");
  let rawLine = [];
  for (;;) {
    const c = nextByte(false);
    if (c === null) return;
    if (typeof c !== "number") {
      if (c.type === "P") {
        mode = "friendly";
        rawLine = [];
        await reboot("hard");
      }
      continue;
    }
    try {
      if (mode === "friendly") {
        if (c === 0x01) {
          mode = "raw";
          rawLine = [];
          out("\r\n" + BANNER_RAW + ">");
          continue;
        }
        if (c === 0x03) event("ctrl-C at the REPL");
        const r = mp.replProcessChar(c);
        if (r) await reboot("soft");
        continue;
      }
      // raw REPL
      if (c === 0x01) {
        if (rawLine.length === 2 && rawLine[0] === 0x05 && rawLine[1] === 0x41) {
          rawLine = [];
          rawPaste();
          continue;
        }
        rawLine = [];
        out(BANNER_RAW + ">");
      } else if (c === 0x02) {
        mode = "friendly";
        rawLine = [];
        out("\r\n");
        mp.replInit();
      } else if (c === 0x03) {
        rawLine = [];
      } else if (c === 0x04) {
        out("OK");
        if (rawLine.length === 0) {
          out("\r\n");
          await reboot("soft");
          continue;
        }
        const src = Buffer.from(rawLine).toString("utf8");
        rawLine = [];
        execRaw(src);
        out(">");
      } else {
        rawLine.push(c);
      }
    } catch (e) {
      if (!(e instanceof BoardReset)) throw e;
      rawLine = [];
      await reboot(e.kind);
    }
  }
}

function rawPaste() {
  out("R\x01");
  out(Buffer.from([PASTE_WINDOW & 0xff, PASTE_WINDOW >> 8]));
  const code = [];
  let room = PASTE_WINDOW;
  for (;;) {
    const c = nextByte(false);
    if (c === null) return;
    if (typeof c !== "number") continue;
    if (c === 0x04) {
      out("\x04");
      break;
    }
    code.push(c);
    room -= 1;
    if (room === 0) {
      room = PASTE_WINDOW;
      out("\x01");
    }
  }
  execRaw(Buffer.from(code).toString("utf8"));
  out(">");
}

try {
  await main();
} finally {
  flushOut();
}
