/**
 * The PTX program model, built by {@link dev.numlint.ptx.parser.PtxReader#read(String)} and designed so that both
 * static analyses and a CPU interpreter can work on it. The reader runs the generated ANTLR parser of
 * {@code Ptx.g4} (SLL prediction, one top-level item at a time over an unbuffered token stream) fed by
 * {@link dev.numlint.ptx.parser.FastPtxLexer}, a hand-written lexer that produces exactly the grammar lexer's tokens
 * ({@code readWithAntlrLexer} uses the generated lexer). Syntax errors skip the function and are returned as
 * {@code PtxReader.Problem}s (line, token, message); the reader never throws for bad input.
 *
 * <h2>Structure</h2>
 * <ul>
 *   <li>{@link dev.numlint.ptx.model.PtxModule}: {@code version}, {@code target}, {@code addressSize}, the
 *       {@code .file} table ({@code files()}: index -> path), module-level {@link dev.numlint.ptx.model.Variable}s
 *       and {@link dev.numlint.ptx.model.PtxFunction}s ({@code function(name)}, {@code definedFunctions()}).</li>
 *   <li>{@link dev.numlint.ptx.model.Variable}: state space, type, element size, length, alignment and the
 *       initial bytes ({@code init()}, little endian, exactly {@code size()} bytes, or null) plus
 *       {@code initSymbols()} (byte offset -> symbol for address initializers).</li>
 *   <li>{@link dev.numlint.ptx.model.PtxFunction}: {@code params()} / {@code returnParams()} as
 *       {@link dev.numlint.ptx.model.Param} with byte {@code offset()}, {@code size()}, {@code align()} (the
 *       parameter buffer layout, {@code paramBufferSize()}); {@code registers()} ({@code .reg} declarations,
 *       {@code registerType(name)}); {@code locals()} ({@code .local}/{@code .shared}/call {@code .param}
 *       variables such as {@code __local_depot0}); {@code instructions()} indexed 0..n-1;
 *       {@code labels()} / {@code labelTarget(label)}: label -> instruction index; {@code directives()}
 *       (maxntid, reqntid, minnctapersm, maxnreg, noreturn).</li>
 *   <li>{@link dev.numlint.ptx.model.Instruction}: {@code guard()} + {@code guardNegated()}, {@code opcode()},
 *       {@code modifiers()} (in order, without dots) decoded as {@code rounding()}, {@code ftz()}, {@code sat()},
 *       {@code approx()}, {@code full()}, {@code mulMode()} (wide/hi/lo), {@code compare()}, {@code space()},
 *       {@code vectorWidth()}, {@code types()} (cvt: destination type first, {@code type()} /
 *       {@code sourceType()}); {@code operands()}; {@code defs()} / {@code uses()} (register names);
 *       {@code loc()} ({@link dev.numlint.ptx.model.DebugLoc}); {@code block()}; {@code ptxLine()};
 *       {@code text()} (the instruction as written, whitespace normalized).</li>
 *   <li>{@link dev.numlint.ptx.model.Operand} (sealed): {@code Reg} (name + component, e.g. {@code %tid.x};
 *       {@code isSpecial()}), {@code IntImm} (long), {@code FloatImm} (exact {@code bits()}, {@code isDouble()}:
 *       {@code 0f3F800000} keeps its 32 bits), {@code Symbol} (variable/function/param name), {@code Label}
 *       (resolved {@code target()} instruction index), {@code Address} ({@code [base+offset]}, base a Reg or
 *       Symbol or null), {@code Offset} ({@code sym+8} outside brackets), {@code Vector}, {@code ParenList} (call
 *       return/argument lists), {@code Not}, {@code PredPair} ({@code %p|%q}), {@code Sink} ({@code _}).</li>
 * </ul>
 *
 * <h2>Analyses (lazy, cached, thread-safe after first use)</h2>
 * <ul>
 *   <li>CFG: {@code PtxFunction.blocks()} ({@link dev.numlint.ptx.model.BasicBlock}: first/last instruction,
 *       successors, predecessors; guarded branches have two successors), {@code immediateDominators()},
 *       {@code dominates(a, b)}.</li>
 *   <li>Loops: {@code PtxFunction.loops()} ({@link dev.numlint.ptx.model.Loop}: header, latches, body blocks,
 *       {@code tripCount()} estimate when the induction register ({@code add r, r, step}) is compared with a
 *       constant, -1 otherwise; {@code tripCountBound()} when it is an upper bound), {@code innermostLoop(block)}.</li>
 *   <li>Def-use: {@code PtxFunction.defUse()} ({@link dev.numlint.ptx.model.DefUse}): {@code reachingDefs(instr,
 *       reg)} (reaching definitions over the CFG; predicated definitions do not kill), {@code uniqueDef},
 *       {@code allDefs(reg)}, {@code users(instr)} (def-use chains).</li>
 *   <li>Debug lines: {@code Instruction.loc()} holds the {@code .loc} position, the inlined function name and the
 *       {@code inlined_at} chain innermost first; {@code DebugLoc.userPos()} is the outermost call site (the line
 *       in the kernel's own code).</li>
 * </ul>
 *
 * <h2>Interpreting</h2>
 * Execute {@code instructions()} by index: branch targets are {@code Operand.Label.target()}; a guarded
 * instruction runs when its predicate register (negated when {@code guardNegated()}) is true; {@code ld.param}
 * addresses name a {@link dev.numlint.ptx.model.Param} whose {@code offset()} gives its place in the parameter
 * buffer; module variables have {@code init()} bytes; float immediates carry exact bits.
 */
package dev.numlint.ptx.model;
