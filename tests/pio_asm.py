"""Host-side PIO tooling for tests/test_pio_sampler.py.

Two parts:

1. A CPython implementation of the subset of MicroPython's ``rp2.asm_pio``
   DSL that firmware/rp2port/pio_sampler.py uses, so the REAL firmware
   function ``sampler_program()`` can be assembled on the host.  It works as
   MicroPython's own (ports/rp2/modules/rp2.py, class PIOASMEmit): the
   decorator swaps the decorated function's module globals for the DSL names
   (mov, jmp, x, osr, ...), calls the function twice (pass 0 collects labels,
   pass 1 emits words), restores the globals, and returns the same 8-field
   program list MicroPython hands to rp2.StateMachine:
   ``[array('H') words, -1, -1, execctrl, shiftctrl, out_init, set_init,
   sideset_init]``.

   Supported: label, wrap_target, wrap, mov (sources/destinations of the
   RP2040), in_, jmp (all 8 conditions), push (block/noblock/iffull), delay via
   ``[n]``; asm_pio options in_shiftdir, out_shiftdir, autopush, autopull,
   push_thresh, pull_thresh, fifo_join.  Not supported (the sampler does not
   use them): side-set, out, pull, set, wait, irq, nop, word; using one raises
   PIOASMError.

   Encodings (RP2040 datasheet, section 3.4 "Instruction Set"; every
   instruction is 16 bits: [15:13] opcode, [12:8] delay/side-set, [7:0] args):

   ====== ======= ===================================================
   instr  [15:13]  [7:0]
   ====== ======= ===================================================
   JMP     000     cond[7:5] (0 always, 1 !x, 2 x--, 3 !y, 4 y--,
                   5 x!=y, 6 pin, 7 !osre), address[4:0]
   IN      010     source[7:5] (0 pins, 1 x, 2 y, 3 null, 6 isr,
                   7 osr), bit count[4:0] (32 encoded as 0)
   PUSH    100     bit7=0, IfFull bit6, Block bit5, [4:0]=0
   MOV     101     dest[7:5] (0 pins, 1 x, 2 y, 4 exec, 5 pc, 6 isr,
                   7 osr), op[4:3] (0 none, 1 invert, 2 reverse),
                   source[2:0] (0 pins, 1 x, 2 y, 3 null, 5 status,
                   6 isr, 7 osr)
   ====== ======= ===================================================

   EXECCTRL: WRAP_TOP [16:12], WRAP_BOTTOM [11:7].  SHIFTCTRL: FJOIN_RX
   bit 31, FJOIN_TX bit 30 (MicroPython writes fifo_join << 30 with
   JOIN_TX=1, JOIN_RX=2), PULL_THRESH [29:25], PUSH_THRESH [24:20]
   (32 encoded as 0), OUT_SHIFTDIR 19, IN_SHIFTDIR 18 (1 = right),
   AUTOPULL 17, AUTOPUSH 16.

2. ``SamplerRun``: runs an assembled program on the PyPI emulator
   ``rp2040-pio-emulator`` (module ``pioemu``) with GPIO levels given as a
   function of the clock, the way rp2port/buttons.py configures the state machine.
   pioemu covers every instruction the sampler uses (mov x/y/isr/osr/null,
   in pins/osr/x, jmp x!=y / x-- / always, push noblock, delays), with two
   gaps this wrapper fills:

   - no IN_BASE: ``in pins`` reads from GPIO 0 upward.  The wrapper rotates
     the GPIO levels right by in_base before handing them to pioemu, which is
     exactly the RP2040 IN mapping (pin in_base+i -> bit i, modulo 32);
   - the RX FIFO is always 4 deep (it has no FIFO join; JOIN_RX makes it 8
     deep on the chip).  The wrapper drains the FIFO after every push when
     ``drain=True`` (what the DMA channel does on the Pico), so the depth only
     matters in the FIFO-full test, which holds for any depth.

   - no IRQ instruction: the wrapper runs each ``irq`` that sets a flag as
     ``mov y, y`` with the same delay (one cycle, no effect on the state
     machine's registers, FIFOs or pins: on the chip the flag only raises
     the CPU interrupt) and records when it ran in ``irqs``;

   pioemu charges the delay cycles of an instruction right after it, and calls
   the input source at the start of every instruction, so ``in pins`` sees the
   levels of the clock it executes in (1 clock = 1 us at the 1 MHz the port
   uses).  The GPIO input synchronisers (2 system clocks, 16 ns at 125 MHz)
   are not modelled.
"""
import importlib
import sys
import types
from array import array
from collections import deque
from dataclasses import replace


class PIOASMError(Exception):
    """A program the assembler refuses (as MicroPython's rp2.PIOASMError)."""


class PIO:
    """The constants of MicroPython's rp2.PIO that asm_pio takes."""

    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


# indexes in the program list (as MicroPython's rp2.py)
PROG_DATA = 0
PROG_EXECCTRL = 3
PROG_SHIFTCTRL = 4

# Names the DSL puts in the function's globals while it assembles.  Operand
# values are the datasheet field codes; exec is special-cased per instruction
# (as in MicroPython: 8 is not a valid code anywhere).
DSL_NAMES = {
    "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
    "isr": 6, "osr": 7, "exec": 8,
    "invert": lambda src: src | 0x08,       # mov op 01
    "reverse": lambda src: src | 0x10,      # mov op 10
    # jmp conditions
    "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
    # push options: bit 0 marks "explicitly given", 0x20 Block, 0x40 IfFull
    "noblock": 0x01, "block": 0x21, "iffull": 0x40,
    # irq: index relative to the state machine; mode "clear"
    "rel": lambda index: index | 0x10, "clear": 0x40,
}

MOV_DESTS = (0, 1, 2, 5, 6, 7)          # pins x y pc isr osr (exec handled apart)
MOV_SOURCES = (0, 1, 2, 3, 5, 6, 7)     # pins x y null status isr osr
IN_SOURCES = (0, 1, 2, 3, 6, 7)         # pins x y null isr osr


class Emitter:
    """One program being assembled: MicroPython's two-pass scheme.

    Pass 0 only counts instructions and records label addresses; pass 1
    emits the words (labels may then be used before they are defined).
    """

    def __init__(self, *, in_shiftdir=PIO.SHIFT_LEFT, out_shiftdir=PIO.SHIFT_LEFT,
                 autopush=False, autopull=False, push_thresh=32, pull_thresh=32,
                 fifo_join=PIO.JOIN_NONE, out_init=None, set_init=None, sideset_init=None):
        if out_init is not None or set_init is not None or sideset_init is not None:
            raise PIOASMError("pin init/side-set is not supported by this test assembler")
        self.labels = {}
        shiftctrl = (fifo_join << 30 | (pull_thresh & 0x1F) << 25 | (push_thresh & 0x1F) << 20
                     | out_shiftdir << 19 | in_shiftdir << 18 | autopull << 17 | autopush << 16)
        self.prog = [array("H"), -1, -1, 0, shiftctrl, None, None, None]
        self.wrap_used = False
        self.pass_ = 0
        self.num_instr = 0

    def start_pass(self, pass_):
        if pass_ == 1 and not self.wrap_used and self.num_instr:
            self.wrap()                     # default: wrap after the last instruction
        self.pass_ = pass_
        self.num_instr = 0

    # -- directives --------------------------------------------------------
    def label(self, name):
        if self.pass_ == 0:
            if name in self.labels:
                raise PIOASMError("duplicate label %s" % name)
            self.labels[name] = self.num_instr

    def wrap_target(self):
        if self.pass_ == 0:
            self.prog[PROG_EXECCTRL] |= self.num_instr << 7         # WRAP_BOTTOM
        return None

    def wrap(self):
        if not self.num_instr:
            raise PIOASMError("wrap before any instruction")
        if self.pass_ == 0 or not self.wrap_used:
            self.prog[PROG_EXECCTRL] |= (self.num_instr - 1) << 12  # WRAP_TOP
        self.wrap_used = True

    # -- instructions ------------------------------------------------------
    def _word(self, instr, label=None):
        self.num_instr += 1
        if self.num_instr > 32:
            raise PIOASMError("program longer than 32 instructions")
        if self.pass_ > 0:
            addr = 0
            if label is not None:
                if label not in self.labels:
                    raise PIOASMError("unknown label %s" % label)
                addr = self.labels[label]
            self.prog[PROG_DATA].append(instr | addr)
        return self

    def __getitem__(self, delay):
        """``instr(...)[n]``: n extra idle cycles after the instruction."""
        if self.pass_ > 0:
            if not 0 <= delay <= 31:        # no side-set: all 5 bits are delay
                raise PIOASMError("delay too large")
            self.prog[PROG_DATA][-1] |= delay << 8
        return self

    def jmp(self, cond, label=None):
        if label is None:                   # jmp("label"): unconditional
            cond, label = 0, cond
        if not 0 <= cond <= 7:
            raise PIOASMError("bad jmp condition")
        return self._word(0x0000 | cond << 5, label)

    def in_(self, src, count):
        if src not in IN_SOURCES:
            raise PIOASMError("bad in source %r" % src)
        if not 0 < count <= 32:
            raise PIOASMError("invalid bit count %d" % count)
        return self._word(0x4000 | src << 5 | (count & 0x1F))

    def push(self, opt=0, opt2=0):
        opt |= opt2
        if not opt & 1:                     # no block/noblock given: block
            opt |= 0x20
        return self._word(0x8000 | (opt & 0x60))

    def mov(self, dest, src):
        if dest == 8:
            dest = 4                        # exec
        elif dest not in MOV_DESTS:
            raise PIOASMError("bad mov destination %r" % dest)
        if (src & 7) not in MOV_SOURCES or src >> 5:
            raise PIOASMError("bad mov source %r" % src)
        return self._word(0xA000 | dest << 5 | src)

    def irq(self, mod, index=None):
        """irq(index) sets the flag, irq(block, index) waits for it to be
        cleared, irq(clear, index) clears it (MicroPython's argument order)."""
        if index is None:
            mod, index = 0, mod
        if not 0 <= index <= 0x17:
            raise PIOASMError("bad irq index %r" % index)
        return self._word(0xC000 | (mod & 0x60) | index)

    def _unsupported(self, *args, **kw):
        raise PIOASMError("instruction not supported by the test assembler")

    out = pull = set = wait = nop = word = side = _unsupported


DIRECTIVES = ("label", "wrap_target", "wrap")
INSTRUCTIONS = ("jmp", "in_", "push", "mov", "out", "pull", "set", "wait", "irq", "nop", "word")


def asm_pio(**options):
    """The decorator: returns the program list instead of the function."""
    emit = Emitter(**options)

    def dec(f):
        gl = f.__globals__
        saved = gl.copy()
        gl.clear()
        try:
            gl.update(DSL_NAMES)
            for name in DIRECTIVES + INSTRUCTIONS:
                gl[name] = getattr(emit, name)
            emit.start_pass(0)
            f()
            emit.start_pass(1)
            f()
        finally:
            gl.clear()
            gl.update(saved)
        return emit.prog

    return dec


def fake_rp2():
    """A module standing in for MicroPython's rp2 while a program assembles."""
    m = types.ModuleType("rp2")
    m.asm_pio = asm_pio
    m.PIO = PIO
    m.PIOASMError = PIOASMError
    return m


def firmware_sampler_program(width, kbits):
    """Run the firmware's own sampler_program(width, kbits) with our rp2.

    rp2port.pio_sampler is imported afresh with a fake ``rp2`` in
    sys.modules; both entries are restored afterwards.
    """
    keep = {k: sys.modules.get(k) for k in ("rp2", "rp2port.pio_sampler")}
    try:
        sys.modules["rp2"] = fake_rp2()
        sys.modules.pop("rp2port.pio_sampler", None)
        mod = importlib.import_module("rp2port.pio_sampler")
        return mod.sampler_program(width, kbits)
    finally:
        for k, v in keep.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


# -- decoding a program list ---------------------------------------------------
def opcodes(prog):
    return list(prog[PROG_DATA])


def wrap_bounds(prog):
    """(wrap_target, wrap_top) from EXECCTRL."""
    e = prog[PROG_EXECCTRL]
    return (e >> 7) & 0x1F, (e >> 12) & 0x1F


def in_shift_right(prog):
    return bool((prog[PROG_SHIFTCTRL] >> 18) & 1)


def fifo_join(prog):
    return (prog[PROG_SHIFTCTRL] >> 30) & 3


def autopush(prog):
    return bool((prog[PROG_SHIFTCTRL] >> 16) & 1)


# -- running it ----------------------------------------------------------------
def rotate_right(v, n):
    n %= 32
    v &= 0xFFFFFFFF
    return ((v >> n) | (v << (32 - n))) & 0xFFFFFFFF


class SamplerRun:
    """The sampler program on pioemu, configured as rp2port/buttons.py does.

    levels(clock) -> 32-bit GPIO levels (bit g = GPIO g) at that clock.
    x, y: the registers at start (the port execs set(x, 0) and set(y, 0)).
    drain: empty the RX FIFO after each push (the DMA channel); else words
    stay in the (4-deep) FIFO and later noblock pushes are dropped.

    After run(): words = [(clock of the push, word)] that reached the
    FIFO, pushes = [clock of every push executed, dropped or not], irqs = [clock
    of every CPU interrupt raised], samples = [clock of
    every ``in pins``], loop_starts = [clock of every wrap_target fetch],
    steps = [(before, after)] pioemu states when keep_steps.
    """

    def __init__(self, prog, in_base, levels, x=0, y=0, clock=0, drain=True, keep_steps=False):
        import pioemu  # imported here: the assembler half needs no emulator
        from pioemu.shift_register import ShiftRegister

        self.pioemu = pioemu
        self.ops = opcodes(prog)
        # IRQ set (no wait, no clear): same timing and data path as mov y, y
        self.irq_pcs = {pc for pc, op in enumerate(self.ops) if op & 0xE060 == 0xC000}
        self.ops = [(0xA042 | (op & 0x1F00)) if pc in self.irq_pcs else op
                    for pc, op in enumerate(self.ops)]
        self.wrap_target, self.wrap_top = wrap_bounds(prog)
        self.shift_right = in_shift_right(prog)
        if autopush(prog):
            raise ValueError("autopush is not modelled by this wrapper")
        self.in_base = in_base
        self.levels = levels
        self.drain = drain
        self.keep_steps = keep_steps
        # the port's state machine starts at the program's first instruction
        # (offset 0 here), with a cleared ISR (shift count 0) and an empty OSR
        self.state = pioemu.State(clock=clock, program_counter=0, x_register=x & 0xFFFFFFFF,
                                  y_register=y & 0xFFFFFFFF,
                                  input_shift_register=ShiftRegister(0, 0))
        self.in_pins_pc = self._find_in_pins()
        self.push_pcs = {pc for pc, op in enumerate(self.ops) if op & 0xE080 == 0x8000}
        self.words = []
        self.pushes = []
        self.samples = []
        self.loop_starts = []
        self.irqs = []
        self.steps = []

    def _find_in_pins(self):
        for pc, op in enumerate(self.ops):
            if op & 0xE0E0 == 0x4000:         # IN with source pins
                return pc
        raise ValueError("the program never reads the pins")

    def run(self, until_clock):
        """Emulate until the clock reaches until_clock; returns self."""
        base = self.in_base
        levels = self.levels

        def source(clock: int) -> int:
            return rotate_right(levels(clock), base)

        while self.state.clock < until_clock:
            stop_now = [False]

            def stop_when(_opcode, state, stop_now=stop_now):
                return state.clock >= until_clock or stop_now[0]

            gen = self.pioemu.emulate(
                self.ops, stop_when=stop_when, initial_state=self.state,
                input_source=source, shift_isr_right=self.shift_right,
                wrap_target=self.wrap_target, wrap_top=self.wrap_top)
            for before, after in gen:
                if self.keep_steps:
                    self.steps.append((before, after))
                pc = before.program_counter
                if pc == self.wrap_target:
                    self.loop_starts.append(before.clock)
                if pc == self.in_pins_pc:
                    self.samples.append(before.clock)
                if pc in self.push_pcs:
                    self.pushes.append(before.clock)
                if pc in self.irq_pcs:
                    self.irqs.append(before.clock)
                if len(after.receive_fifo) > len(before.receive_fifo):
                    self.words.append((before.clock, after.receive_fifo[-1]))
                    if self.drain:
                        stop_now[0] = True    # restart with an empty FIFO
                self.state = after
            if self.drain and self.state.receive_fifo:
                self.state = replace(self.state, receive_fifo=deque())
            if not stop_now[0]:
                break
        return self
