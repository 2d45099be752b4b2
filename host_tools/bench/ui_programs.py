"""The programs host_tools/bench/ui.py runs inside MicroPython (the WebAssembly port), as source text.

BENCH drives the firmware's App on host_tools/hw/fake_hw.py and prints one ``BENCH {json}`` line: the
redraw times after a press, the bytes a cursor move sends from each of MOVE_STATES, the heap at boot,
over a deal and over a whole match, and what the screens keep to draw fast.  MODULES imports the
firmware's modules one by one and prints what each adds to the live heap.  Both measure the heap
the same way (SETTLE).  bench/ui.py builds the firmware tree they run on, runs them and reports.
"""

# Where a cursor can move at the table, for the bytes it sends (the bench's cursor_states).
MOVE_STATES = (
    "10 cards",
    "11, drawn from the stock",
    "11, the upcard taken",
    "sorted by rank",
    "clearing a message",
    "a refusal showing",
)

# Both MicroPython programs below measure the live heap the same way.
SETTLE = r"""
try:
    import js
    jsgc = js.gc  # node --expose-gc: see _run_with_v8_gc() in host_tools/bench/ui.py
except (ImportError, AttributeError):
    jsgc = None

async def settle():
    # Each await leaves a few bytes held by JavaScript promise proxies until
    # V8 collects them; forcing V8's GC first keeps that noise out.
    if jsgc is not None:
        jsgc()
    await asyncio.sleep(0)
    gc.collect()
    await asyncio.sleep(0)
    return gc.mem_alloc()
"""

BENCH = (
    r"""
import gc, sys, time, asyncio, json

def ticks_us():
    return time.ticks_us()

"""
    + SETTLE
    + r"""
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]

def cpu_us():
    # Node's own CPU time: unlike the wall clock it does not count the time other
    # processes of a busy machine take from us.
    if jsgc is None:
        return 0
    u = js.process.cpuUsage()
    return u.user + u.system


async def redraw_us(app, hw, button, batches=15, n=40, before=None):
    # a press, one step: the key is handled and the whole frame redrawn.  This
    # port's clock ticks in ms: time batches of n steps, report the median batch
    # (wall clock and CPU time); each batch starts on a collected heap, as the
    # device's loop mostly does.
    wall = []
    cpu = []
    for _ in range(batches):
        await settle()
        c0 = cpu_us()
        t0 = time.ticks_ms()
        for i in range(n):
            if before is not None:
                before()
            if button >= 0:
                hw.buttons.push(button * 4)
            else:
                app.dirty = True
            app.step()
        wall.append(time.ticks_diff(time.ticks_ms(), t0) * 1000 // n)
        cpu.append((cpu_us() - c0) // n)
    return [median(wall), median(cpu)]

MOVE_STATES = __MOVE_STATES__

class NullDriver:
    # the I2C calls themselves are the wire time, estimated from the byte count
    def write_cmds(self, b):
        pass

    def write_data(self, b):
        pass


def wire_display(hw):
    # hw.display as on the Pico: device.display.FrameSender works out and "sends" the changed windows
    from device.display import FrameSender
    d = hw.display
    sender = FrameSender()
    drv = NullDriver()
    d.sent = []
    d.max_sent = 0
    d.damage = None
    def show(buf):
        damage = d.damage
        d.damage = None
        sender.send(drv, buf, damage)
        n = sender.sent
        if d.record:
            d.sent.append(n)
        if n > d.max_sent:
            d.max_sent = n
        d.shows += 1
        return True
    d.record = False
    d.show = show
    return d


def cursor_states(a, hw, d, deals=8):
    # bytes over I2C of every cursor move (◀ and ▶ round the hand) in every state a move can be
    # made in at the table, a few turns of several deals
    from gin.round import DISCARD_PHASE, DRAW, OFFER, PASS, DRAW_STOCK, TAKE_DISCARD
    from ui import screens
    out = {}
    cpu = {}
    firsts = []
    # reading the CPU clock from here costs time too (a JavaScript call): measured and taken off
    zero = []
    for _ in range(50):
        c0 = cpu_us()
        zero.append(cpu_us() - c0)
    zero = median(zero)
    for k in MOVE_STATES:
        out[k] = []
        cpu[k] = []
    disp = hw.display

    def move(state, b=3, first=False):  # b: 3 RIGHT, 2 LEFT
        disp.sent = []
        disp.record = True
        hw.buttons.push(b * 4)
        c0 = cpu_us()
        a.step()
        t = cpu_us() - c0 - zero
        cpu[state].append(t)
        if first:
            firsts.append(t)
        disp.record = False
        out[state].extend(disp.sent)

    def moves(state):
        a.step()  # whatever else is due is drawn first: only the moves are counted
        n = len(a.match.round.cards_of(a.seat)) + 1  # round the hand and on: the wrap too
        for b in (3, 2):
            for i in range(n):
                move(state, b, b == 3 and i < n - 1)  # the first time round: each card's first visit

    def press(b):
        hw.buttons.push(b * 4)
        a.step()

    for deal in range(deals):
        a.new_game(seed=4100 + deal)
        take = deal & 1
        for _ in range(3):  # a few turns of each deal
            rnd = a.match.round
            for _ in range(3000):  # the computer plays its turn
                if a.view.sid != screens.TABLE:
                    break
                if rnd.player == a.seat and rnd.phase in (OFFER, DRAW):
                    break
                d.run(50)
            if a.view.sid != screens.TABLE or rnd.phase not in (OFFER, DRAW):
                break
            a.sort = 0
            moves("10 cards")
            press(6)  # KNOCK before drawing: refused, the reason stays on its line a while
            moves("a refusal showing")
            a.msg = None
            a.dirty = True
            if take and (rnd.phase == OFFER or not rnd.stock_only):
                a.act(TAKE_DISCARD)
            elif rnd.phase == OFFER:
                a.act(PASS)
                continue
            else:
                a.act(DRAW_STOCK)
            a.msg = None
            d.run(50)
            if rnd.phase != DISCARD_PHASE:
                break
            moves("11, the upcard taken" if rnd.taken >= 0 else "11, drawn from the stock")
            press(0)  # UP: sorted by rank, and a message says so
            move("clearing a message")
            moves("sorted by rank")
            press(0)
            press(1)  # DOWN: the hint, a long message
            move("clearing a message")
            a.act(a.hint()[0])  # hard's discard (or knock) for you
            d.run(50)
    a.msg = None
    return out, dict((k, median(v) if v else 0) for k, v in cpu.items()), median(firsts)


async def main():
    res = {}
    base = await settle()
    res["empty"] = base
    from fake_hw import FakeHw, Driver, AutoPlayer
    res["fake_hw"] = await settle() - base
    import app as appmod
    hw = FakeHw(start_ms=4242)
    wire_display(hw)
    a = appmod.App(hw)
    d = Driver(a, hw)
    d.run(300)
    res["boot_title"] = await settle()
    res["boot_modules"] = sorted(k for k in sys.modules if not k.startswith("_"))
    # redraw after a press, per screen
    times = {}
    frames = hw.display.shows
    times["title"] = await redraw_us(a, hw, 1)
    from ui import screens
    a.goto(screens.RULES)
    times["menu"] = await redraw_us(a, hw, 1)
    a.goto(screens.TITLE)
    a.new_game()
    times["table"] = await redraw_us(a, hw, 3)
    bot = AutoPlayer(d)
    rnd = a.match.round
    from gin.round import DISCARD_PHASE
    while not (rnd.phase == DISCARD_PHASE and a.is_human(rnd.player)):  # your turn, eleven cards
        bot.step()
    times["table11"] = await redraw_us(a, hw, 3)  # the cursor moves: the live count and legend follow
    # the same moves with nothing kept to copy back: every text and legend drawn anew (as after
    # the screen's kept text was dropped to make room).  One collection before them all, as for
    # the batches: one right before each move made that move run 60-100 us slower on this port
    # (the host's caches after the collector walked the heap), which is not the drawing's cost
    from ui import draw as uidraw
    from ui.font import SMALL, NORMAL
    cold = []
    zero = []
    await settle()
    for k in range(33):
        uidraw.forget_kept()
        for f in (SMALL, NORMAL):
            f.strips = None
        c0 = cpu_us()
        zero.append(cpu_us() - c0)
        c0 = cpu_us()
        hw.buttons.push(3 * 4)
        a.step()
        cold.append(cpu_us() - c0)
    res["cursor_cold_us"] = median(cold) - median(zero)
    # a full redraw of the same table (as after a move of the game)
    def full():
        a._drawn = None
    times["table_full"] = await redraw_us(a, hw, -1, before=full)
    res["cursor_states"], res["cursor_states_us"], res["cursor_first_us"] = cursor_states(a, hw, d)
    a.new_game()
    while a.view.sid != screens.RESULT:
        bot.step()
    d.press("DRAW")  # skip the lay-offs
    times["result"] = await redraw_us(a, hw, -1)
    d.press("DRAW")
    times["sheet"] = await redraw_us(a, hw, -1)
    res["redraw_us"] = times
    res["redraw_frames"] = hw.display.shows - frames
    res["max_bytes"] = hw.display.max_sent
    a.quit_to_title()
    d.run(100)
    await settle()
    # a whole match, the heap read between steps
    a.new_game()
    peak_live = 0
    peak_pre = 0
    steps = 0
    clock = hw.clock
    async def run_for(ms):
        nonlocal peak_live, peak_pre, steps
        end = clock.now() + ms
        while True:
            before = gc.mem_alloc()
            sleep = a.step()
            steps += 1
            pre = gc.mem_alloc()
            if steps % 50 == 0 and jsgc is not None:
                jsgc()
            gc.collect()  # this port collects when control is back in JavaScript
            await asyncio.sleep(0)
            live = gc.mem_alloc()
            if live > peak_live:
                peak_live = live
            if pre - before + live > peak_pre:
                peak_pre = pre - before + live
            if clock.now() >= end:
                return
            dt = sleep if sleep > 0 else 1
            if clock.now() + dt > end:
                dt = end - clock.now()
            clock.advance(dt)
    from fake_hw import WAIT
    while True:
        b = bot.decide(True)
        if b is None:
            break
        if b != WAIT:
            hw.buttons.press(b, 60)
            await run_for(100)
        else:
            await run_for(50)
    res["match_steps"] = steps
    res["match_hands"] = a.stats.levels[1].hands
    res["match_over"] = a.view.sid == 0 and a.stats.levels[1].matches == 1
    res["peak_live"] = peak_live
    res["peak_with_garbage"] = peak_pre
    # every firmware module at once
    for m in ("gin.cards", "gin.rules", "gin.meldtables", "gin.melds", "gin.round", "gin.match", "gin.ai_eval",
              "gin.ai", "prefs", "savegame", "device.storage", "device.sleep", "device.buttons", "device.display",
              "ui.font", "ui.canvas", "ui.cardart", "ui.draw", "ui.hand", "ui.keys", "ui.table", "ui.menus",
              "ui.pages", "ui.result", "ui.sheet", "app"):
        __import__(m)
    res["all_modules"] = await settle()
    # the heap a new hand's deal allocates (no collection runs inside this straight code)
    from gin.round import Round
    from gin.match import hand_seed
    from gin.rules import RuleSet
    rules = RuleSet()
    deal = []
    for i in range(20):
        hs = hand_seed(1000 + i, i)
        b0 = gc.mem_alloc()
        Round(rules, i & 1, hs)
        deal.append(gc.mem_alloc() - b0)
    res["deal_bytes"] = max(deal)
    # what the screen keeps to draw fast (issue 13): rendered strings, legends, sprite strips
    from ui.font import SMALL, NORMAL
    from ui import draw as uidraw
    k0 = await settle()
    SMALL.strips = None
    NORMAL.strips = None
    uidraw._legends.clear()
    a.canvas._sheets = {}
    res["screen_caches"] = k0 - await settle()
    print("BENCH " + json.dumps(res))

asyncio.run(main())
"""
)


MODULES = (
    r"""
import gc, sys, asyncio, json
"""
    + SETTLE
    + r"""
async def main():
    prev = await settle()
    out = []
    for name in %s:
        __import__(name)
        now = await settle()
        out.append((name, now - prev))
        prev = now
    print("BENCH " + json.dumps(out))

asyncio.run(main())
"""
)
