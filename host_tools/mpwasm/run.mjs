#!/usr/bin/env node
// Run a script under the real MicroPython 1.27 (WebAssembly port) with host folders copied in.
//
//   node run.mjs [--heapsize 192k] [--pystack WORDS] [--path HOSTDIR:MPDIR]... (SCRIPT [ARG...] | -c CODE | -)
//
// Each --path folder is copied in and put on sys.path, in order; the script's own folder is not
// (mount it with --path when the script imports its neighbours).
//
// Exit status: 0 when the Python code finished (or raised SystemExit(0)), the SystemExit code when
// it raised SystemExit(n), 1 for any other Python exception (traceback on stderr), 2 for bad usage.
//
// --heapsize makes the GC heap a hard limit, as on a Pico: the wasm build grows its heap on demand
// ("split heap auto", here up to 512 MB), which would hide a MemoryError the device would raise.
// See capHeap().

import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const USAGE =
  "usage: node run.mjs [--heapsize N[k|m]] [--pystack WORDS] [--path HOSTDIR:MPDIR]... " +
  "(SCRIPT [ARG...] | -c CODE | -)";

function die(msg) {
  process.stderr.write(`run.mjs: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseSize(text) {
  const m = /^(\d+)([km]?)$/i.exec(text || "");
  if (!m) die(`bad size ${JSON.stringify(text)}`);
  const unit = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return parseInt(m[1], 10) * unit;
}

function parseArgs(argv) {
  const opts = { heapsize: null, pystack: 16384, paths: [], code: null, file: null, args: [] };
  let i = 0;
  while (i < argv.length) {
    const a = argv[i];
    if (a === "--heapsize") {
      opts.heapsize = parseSize(argv[++i]);
    } else if (a === "--pystack") {
      opts.pystack = parseSize(argv[++i]);
    } else if (a === "--path") {
      const spec = argv[++i] || "";
      const cut = spec.lastIndexOf(":");
      if (cut <= 0 || !spec.slice(cut + 1).startsWith("/")) die(`bad --path ${JSON.stringify(spec)}`);
      opts.paths.push([spec.slice(0, cut), spec.slice(cut + 1)]);
    } else if (a === "-c") {
      if (i + 1 >= argv.length) die("-c needs code");
      opts.code = argv[++i];
      opts.args = argv.slice(i + 1);
      break;
    } else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (a.startsWith("--")) {
      die(`unknown option ${a}`);
    } else {
      opts.file = a;
      opts.args = argv.slice(i + 1);
      break;
    }
    i++;
  }
  if (opts.code === null && opts.file === null) opts.file = "-";
  return opts;
}

// Byte-at-a-time output from the wasm module, batched per line so long runs still stream.
function makeWriter(stream) {
  let buf = new Uint8Array(4096);
  let n = 0;
  const flush = () => {
    if (n) stream.write(Buffer.from(buf.subarray(0, n)));
    n = 0;
  };
  const put = (bytes) => {
    for (const b of bytes) {
      if (n === buf.length) flush();
      buf[n++] = b;
      if (b === 10) flush();
    }
  };
  return { put, flush };
}

// Copy a host directory tree into the in-memory FS, leaving out dot-files and __pycache__.
function copyTree(FS, hostDir, mpDir) {
  if (!fs.existsSync(hostDir) || !fs.statSync(hostDir).isDirectory()) {
    die(`--path: ${hostDir} is not a directory`);
  }
  FS.mkdirTree(mpDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const src = path.join(hostDir, entry.name);
    const dst = mpDir.replace(/\/$/, "") + "/" + entry.name;
    if (entry.isDirectory()) copyTree(FS, src, dst);
    else if (entry.isFile()) FS.writeFile(dst, fs.readFileSync(src));
  }
}

// Without --heapsize the heap grows on demand; stop it at 512 MB of wasm memory so a runaway
// script ends in a MemoryError quickly instead of taking 2 GB first.
const MEMORY_LIMIT = 512 * 1024 * 1024;

function limitGrowth(limit) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > limit) {
      throw new RangeError(`wasm memory limited to ${limit} bytes by run.mjs`);
    }
    return grow.call(this, pages);
  };
}

// Make the GC heap a hard limit. The GC adds a new heap area with malloc() when it runs out,
// and such an area is never smaller than the failed allocation + 2048 bytes. So: stop the wasm
// memory from growing, use up every byte malloc can give, then hand back a reserve made of
// separated 1 KB holes. The C side (argument and result buffers) still finds room; the GC does not.
function capHeap(mp) {
  const M = mp._module;
  limitGrowth(0);
  const holes = [];
  for (let k = 0; k < 96; k++) {
    holes.push(M._malloc(1024));
    if (!M._malloc(16)) break; // separator, keeps the freed holes from merging
  }
  for (let size = 1 << 24; size >= 8; size >>= 1) {
    while (M._malloc(size)) {
      // keep it: memory that malloc no longer has
    }
  }
  for (const p of holes) if (p) M._free(p);
}

// Runs inside MicroPython as module _gin_boot. This port collects garbage only when control is
// back in JS, never inside one synchronous run, so a script that does `asyncio.run(main())` gets
// `main()` awaited from here, as the stock CLI does: each `await asyncio.sleep...` then returns to
// JS and lets the GC run, as on a device. Code after asyncio.run() runs before main() does.
const BOOT = `import sys, json

_pending = []


def _defer(coro):
    _pending.append(coro)


async def run():
    a = json.load(open("/_gin/args.json"))
    sys.argv[:] = a["argv"]
    for p in reversed(a["paths"]):
        sys.path.insert(0, p)
    g = {"__name__": "__main__", "__file__": a["name"]}
    try:
        with open("/_gin/src.py") as f:
            src = f.read()
        if "asyncio" in src:
            import asyncio

            asyncio.run = _defer
        code = compile(src, a["name"], "exec")
        src = None
        exec(code, g)
        while _pending:
            await _pending.pop(0)
        return 0
    except SystemExit as e:
        c = e.args[0] if e.args else None
        if c is None:
            return 0
        if isinstance(c, int):
            return c
        print(c, file=sys.stderr)
        return 1
    except BaseException as e:
        sys.print_exception(e, sys.stderr)
        return 1
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let src;
  let name;
  if (opts.code !== null) {
    src = opts.code;
    name = "<string>";
  } else if (opts.file === "-") {
    src = fs.readFileSync(0, "utf8");
    name = "<stdin>";
  } else {
    try {
      src = fs.readFileSync(opts.file, "utf8");
    } catch (e) {
      die(`cannot read ${opts.file}: ${e.message}`);
    }
    name = opts.file;
  }

  // Emscripten reports each refused growth on console.error; MicroPython raises MemoryError.
  const consoleError = console.error;
  const refused = ["growMemory:", "Failed to grow the heap", "Cannot enlarge memory"];
  console.error = (...a) => {
    const s = String(a[0]);
    if (refused.some((r) => s.startsWith(r))) return;
    consoleError(...a);
  };

  const out = makeWriter(process.stdout);
  const err = makeWriter(process.stderr);
  const mp = await loadMicroPython({
    heapsize: opts.heapsize || 1024 * 1024,
    pystack: opts.pystack,
    stdout: (b) => out.put(b),
    stderr: (b) => err.put(b),
    linebuffer: false,
  });

  for (const [hostDir, mpDir] of opts.paths) copyTree(mp.FS, hostDir, mpDir);
  // Sources go through the FS rather than runPython() so their size is not limited by capHeap().
  mp.FS.mkdirTree("/_gin");
  mp.FS.writeFile("/_gin/src.py", src);
  mp.FS.writeFile("/_gin/_gin_boot.py", BOOT);
  mp.FS.writeFile(
    "/_gin/args.json",
    JSON.stringify({ name, argv: [name, ...opts.args], paths: opts.paths.map((p) => p[1]) }),
  );
  if (opts.heapsize) capHeap(mp);
  else limitGrowth(MEMORY_LIMIT);

  let rc;
  try {
    await mp.runPythonAsync(
      "import sys\nsys.path.insert(0, '/_gin')\nimport _gin_boot\nsys.path.pop(0)\n" +
        "_gin_rc = await _gin_boot.run()\n",
    );
    rc = mp.globals.get("_gin_rc");
  } catch (e) {
    // Only reached when the bootstrap itself fails (e.g. the heap is too small to start).
    out.flush();
    err.put(Buffer.from(`run.mjs: MicroPython failed outside the script: ${e.type || ""} ${e.message}\n`));
    rc = 1;
  }
  out.flush();
  err.flush();
  process.exitCode = typeof rc === "number" ? rc & 0xff : 1;
}

await main();
