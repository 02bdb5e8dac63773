package dev.numlint.ptx.parser;

import dev.numlint.ptx.model.Access;
import dev.numlint.ptx.model.DebugLoc;
import dev.numlint.ptx.model.Instruction;
import dev.numlint.ptx.model.Operand;
import dev.numlint.ptx.model.Param;
import dev.numlint.ptx.model.PtxFunction;
import dev.numlint.ptx.model.PtxModule;
import dev.numlint.ptx.model.RegisterDecl;
import dev.numlint.ptx.model.SourcePos;
import dev.numlint.ptx.model.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CodePointCharStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.UnbufferedTokenStream;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Reads PTX text into a {@link PtxModule} with the ANTLR grammar {@code Ptx.g4}. The module is parsed one
 * top-level item at a time over an unbuffered token stream (memory stays proportional to the largest function,
 * not the file), with SLL prediction. A function with a syntax error is skipped and reported as a
 * {@link Problem}; the rest of the module is still read. Never throws for bad input.
 */
public final class PtxReader {
    /** A syntax error: PTX line, the offending token, the parser's message and the function it was in (or null). */
    public record Problem(int line, String token, String message, String function) {}

    /** The module read, syntax problems, and the names of functions skipped because of them. */
    public record Result(PtxModule module, List<Problem> problems, List<String> skippedFunctions, int topItems) {
        /** True when nothing usable was read (no functions, no header) and there were errors. */
        public boolean failed() {
            return !problems.isEmpty()
                    && module.functions().isEmpty()
                    && module.version() == null
                    && module.variables().isEmpty();
        }
    }

    private PtxReader() {}

    /** Reads PTX with the fast hand-written lexer ({@link FastPtxLexer}) feeding the generated parser. */
    public static Result read(String text) {
        Result deep = NestingGuard.tooDeep(text);
        return deep != null ? deep : new Builder(text, false).run();
    }

    /**
     * The deepest nesting of braces, parentheses and brackets read; deeper PTX is refused before the parser's
     * recursion could overflow the stack (nvcc's PTX nests a few levels).
     */
    public static final int MAX_NESTING = NestingGuard.MAX_NESTING;

    /** Reads PTX with the generated ANTLR lexer (reference path; slower). */
    public static Result readWithAntlrLexer(String text) {
        return new Builder(text, true).run();
    }

    /**
     * The default strategy minus the per-iteration {@code sync} look-ahead check of every loop (a measurable
     * share of parse time on large files); errors are still reported and recovered from at the failing token.
     */
    private static final class LeanErrorStrategy extends org.antlr.v4.runtime.DefaultErrorStrategy {
        /**
         * While a function is streamed: stop at the first error (already reported) instead of recovering, since the
         * function is skipped to its closing brace anyway, and recovery from a rule started on its own would
         * consume up to the end of the file.
         */
        boolean bail;

        @Override
        public void sync(org.antlr.v4.runtime.Parser recognizer) {
            // no look-ahead validation inside loops
        }

        @Override
        public void recover(org.antlr.v4.runtime.Parser recognizer, RecognitionException e) {
            if (bail) throw new org.antlr.v4.runtime.misc.ParseCancellationException(e);
            super.recover(recognizer, e);
        }
    }

    private static final class Builder extends BaseErrorListener {
        private final String text;
        private final List<Problem> problems = new ArrayList<>();
        private final List<String> skipped = new ArrayList<>();
        private String version;
        private String target;
        private final List<String> targetOptions = new ArrayList<>();
        private int addressSize = 64;
        private final Map<Integer, String> files = new LinkedHashMap<>();
        private final List<Variable> variables = new ArrayList<>();
        private final List<PtxFunction> functions = new ArrayList<>();
        private int itemErrors;
        /** Registers declared without '%' (inline asm scopes: {@code .reg .pred p;}) in the current function. */
        private final java.util.Set<String> plainRegs = new java.util.HashSet<>();
        /** One list object per distinct modifier sequence: a function repeats a few dozen of them many times. */
        private final Map<List<String>, List<String>> modifierLists = new HashMap<>();

        private String currentFunction;

        private final boolean antlrLexer;

        Builder(String text, boolean antlrLexer) {
            this.text = text;
            this.antlrLexer = antlrLexer;
        }

        Result run() {
            org.antlr.v4.runtime.TokenSource lexer;
            if (antlrLexer) {
                CodePointCharStream cs = CharStreams.fromString(text);
                PtxLexer l = new PtxLexer(cs);
                l.removeErrorListeners();
                l.addErrorListener(this);
                lexer = l;
            } else {
                lexer = new FastPtxLexer(text);
            }
            UnbufferedTokenStream<Token> ts = new UnbufferedTokenStream<>(lexer, 512);
            PtxParser parser = new PtxParser(ts);
            parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
            parser.removeErrorListeners();
            parser.addErrorListener(this);
            LeanErrorStrategy errors = new LeanErrorStrategy();
            parser.setErrorHandler(errors);
            int items = 0;
            while (ts.LA(1) != Token.EOF) {
                int before = ts.index();
                itemErrors = 0;
                currentFunction = null;
                if (functionAhead(ts)) {
                    items++;
                    errors.bail = true;
                    try {
                        streamFunction(parser, ts);
                    } catch (RuntimeException e) {
                        problems.add(new Problem(
                                ts.LT(1).getLine(),
                                ts.LT(1).getText(),
                                "could not build the model: " + e,
                                currentFunction));
                        if (currentFunction != null) skipped.add(currentFunction);
                    }
                    errors.bail = false;
                    if (ts.index() == before && ts.LA(1) != Token.EOF) ts.consume();
                    continue;
                }
                PtxParser.TopItemContext item;
                try {
                    item = parser.topItem();
                } catch (RuntimeException e) {
                    problems.add(new Problem(ts.LT(1).getLine(), ts.LT(1).getText(), "parser failure: " + e, null));
                    break;
                }
                items++;
                if (itemErrors == 0) {
                    try {
                        topItem(item);
                    } catch (RuntimeException e) {
                        problems.add(new Problem(
                                item.start.getLine(),
                                item.start.getText(),
                                "could not build the model: " + e,
                                currentFunction));
                        if (currentFunction != null) skipped.add(currentFunction);
                    }
                } else {
                    PtxParser.FunctionDeclContext f = item.functionDecl();
                    if (f != null && f.functionHead().name != null)
                        skipped.add(f.functionHead().name.getText());
                }
                if (ts.index() == before && ts.LA(1) != Token.EOF) ts.consume();
            }
            Access.resolveFiles(functions, files);
            PtxModule m = new PtxModule(version, target, targetOptions, addressSize, files, variables, functions);
            return new Result(m, problems, skipped, items);
        }

        @Override
        public void syntaxError(
                Recognizer<?, ?> recognizer,
                Object offendingSymbol,
                int line,
                int col,
                String msg,
                RecognitionException e) {
            itemErrors++;
            String tok = offendingSymbol instanceof Token t ? t.getText() : null;
            if (problems.size() < 100) problems.add(new Problem(line, tok, msg, currentFunction));
        }

        // ---------------------------------------------------------------------------------------- top level

        private void topItem(PtxParser.TopItemContext item) {
            ParseTree c = item.getChild(0);
            if (c instanceof PtxParser.VariableDeclContext v) {
                variableDecl(v, variables);
            } else if (c instanceof PtxParser.VersionDirectiveContext v) {
                version = v.getChild(1).getText();
            } else if (c instanceof PtxParser.TargetDirectiveContext t) {
                for (PtxParser.TargetNameContext n : t.targetName()) {
                    if (target == null) target = n.getStart().getText();
                    else targetOptions.add(n.getStart().getText());
                }
            } else if (c instanceof PtxParser.AddressSizeDirectiveContext a) {
                addressSize = (int) parseInt(a.INT().getText());
            } else if (c instanceof PtxParser.FileDirectiveContext f) {
                files.put((int) parseInt(f.INT(0).getText()), unquote(f.STRING().getText()));
            }
        }

        /** True when the next top-level item is a function: linkage directives, then .entry or .func. */
        private static boolean functionAhead(UnbufferedTokenStream<Token> ts) {
            for (int k = 1; ; k++) {
                int t = ts.LA(k);
                if (t == PtxLexer.ENTRY || t == PtxLexer.FUNC) return true;
                if (t != PtxLexer.VISIBLE && t != PtxLexer.EXTERN && t != PtxLexer.WEAK && t != PtxLexer.COMMON) {
                    return false;
                }
            }
        }

        /**
         * Reads one function: its head with the parser, then its body one statement at a time, each turned into the
         * model and dropped, so memory holds the model of the function, never the parse tree or the tokens of all
         * of it (a 10 MB function of 165,000 instructions: about 600 MB of parse tree otherwise). Nested braces are
         * followed here, not by the parser. A syntax error skips the function (to its closing brace), as before.
         */
        private void streamFunction(PtxParser parser, UnbufferedTokenStream<Token> ts) {
            PtxParser.FunctionHeadContext h;
            try {
                h = parser.functionHead();
            } catch (org.antlr.v4.runtime.misc.ParseCancellationException e) {
                h = null;
            }
            if (h != null && h.name != null) currentFunction = h.name.getText();
            if (h == null || itemErrors > 0) {
                if (currentFunction != null) skipped.add(currentFunction);
                skipBody(ts);
                return;
            }
            String name = h.name.getText();
            boolean entry = h.kind.getType() == PtxLexer.ENTRY;
            String linkage = null;
            for (PtxParser.LinkageContext l : h.linkage())
                linkage = l.getStart().getText().substring(1);
            List<Param> params = h.params == null ? List.of() : params(h.params);
            List<Param> rets = h.returnParams == null ? List.of() : params(h.returnParams);
            Map<String, List<Long>> directives = new LinkedHashMap<>();
            for (PtxParser.FuncAttrContext a : h.funcAttr()) {
                String key = a.getStart().getText().substring(1);
                if (a.getStart().getType() == PtxLexer.PRAGMA) continue;
                List<Long> vals = new ArrayList<>();
                for (TerminalNode n : a.INT()) vals.add(parseInt(n.getText()));
                directives.put(key, vals);
            }
            int line = h.getStart().getLine();
            List<RegisterDecl> regs = new ArrayList<>();
            List<Variable> locals = new ArrayList<>();
            List<Instruction> ins = new ArrayList<>();
            Map<String, Integer> labels = new HashMap<>();
            DebugLoc[] firstLoc = {null};
            plainRegs.clear();
            boolean declarationOnly;
            if (ts.LA(1) == PtxLexer.SEMI) {
                ts.consume();
                declarationOnly = true;
            } else if (ts.LA(1) == PtxLexer.LBRACE) {
                declarationOnly = false;
                ts.consume();
                LocState loc = new LocState();
                List<Instruction> branches = new ArrayList<>();
                int depth = 1;
                while (depth > 0) {
                    int t = ts.LA(1);
                    if (t == Token.EOF) {
                        syntaxError(null, ts.LT(1), ts.LT(1).getLine(), 0, "missing '}' at end of input", null);
                        break;
                    } else if (t == PtxLexer.LBRACE) {
                        ts.consume();
                        depth++;
                    } else if (t == PtxLexer.RBRACE) {
                        ts.consume();
                        depth--;
                    } else {
                        int at = ts.index();
                        PtxParser.StatementContext st;
                        try {
                            st = parser.statement();
                        } catch (org.antlr.v4.runtime.misc.ParseCancellationException e) {
                            st = null;
                        }
                        if (st == null || itemErrors > 0) {
                            skipTo(ts, depth);
                            break;
                        }
                        if (st.label != null) {
                            labels.put(st.label.getText(), ins.size());
                        } else {
                            List<Instruction> added = new ArrayList<>(1);
                            body(List.of(st), regs, locals, added, loc, firstLoc);
                            for (Instruction in : added) {
                                if ("bra".equals(in.opcode()) || "brx".equals(in.opcode())) branches.add(in);
                            }
                            ins.addAll(added);
                        }
                        if (ts.index() == at) ts.consume();
                    }
                }
                for (Instruction in : branches) resolveLabels(in, labels);
            } else {
                syntaxError(null, ts.LT(1), ts.LT(1).getLine(), 0, "expected '{' or ';' after the function head", null);
                declarationOnly = true;
            }
            if (itemErrors > 0) {
                skipped.add(name);
                return;
            }
            functions.add(new PtxFunction(
                    name,
                    entry,
                    linkage,
                    params,
                    rets,
                    directives,
                    regs,
                    locals,
                    ins,
                    labels,
                    declarationOnly,
                    line,
                    firstLoc[0]));
        }

        /** After a bad function head: skips a ';' or a whole brace-balanced body. */
        private static void skipBody(UnbufferedTokenStream<Token> ts) {
            while (ts.LA(1) != Token.EOF && ts.LA(1) != PtxLexer.LBRACE && ts.LA(1) != PtxLexer.SEMI) ts.consume();
            if (ts.LA(1) == PtxLexer.SEMI) {
                ts.consume();
            } else if (ts.LA(1) == PtxLexer.LBRACE) {
                ts.consume();
                skipTo(ts, 1);
            }
        }

        /** Consumes tokens up to and including the '}' that closes {@code depth} open braces. */
        private static void skipTo(UnbufferedTokenStream<Token> ts, int depth) {
            while (depth > 0 && ts.LA(1) != Token.EOF) {
                int t = ts.LA(1);
                if (t == PtxLexer.LBRACE) depth++;
                else if (t == PtxLexer.RBRACE) depth--;
                ts.consume();
            }
        }

        private static void resolveLabels(Instruction in, Map<String, Integer> labels) {
            List<Operand> ops = in.operands();
            List<Operand> out = null;
            for (int k = 0; k < ops.size(); k++) {
                if (ops.get(k) instanceof Operand.Symbol s && labels.containsKey(s.name())) {
                    if (out == null) out = new ArrayList<>(ops);
                    out.set(k, new Operand.Label(s.name(), labels.get(s.name())));
                }
            }
            if (out != null) Access.setOperands(in, List.copyOf(out));
        }

        private List<Param> params(PtxParser.ParamListContext pl) {
            List<Param> out = new ArrayList<>();
            int offset = 0;
            for (PtxParser.ParamDeclContext p : pl.paramDecl()) {
                String type = null;
                int align = 0;
                String ptrSpace = null;
                int ptrAlign = 0;
                boolean afterPtr = false;
                for (PtxParser.DeclSpecContext d : p.declSpec()) {
                    Token t = d.getStart();
                    switch (t.getType()) {
                        case PtxLexer.PTR -> afterPtr = true;
                        case PtxLexer.ALIGN -> {
                            int a = (int) parseInt(d.INT().getText());
                            if (afterPtr) ptrAlign = a;
                            else align = a;
                        }
                        case PtxLexer.GLOBAL, PtxLexer.SHARED, PtxLexer.LOCAL, PtxLexer.CONST -> {
                            if (afterPtr) ptrSpace = t.getText().substring(1);
                        }
                        default -> {
                            String s = t.getText().substring(1);
                            if (typeSize(s) > 0 && type == null) type = s;
                        }
                    }
                }
                if (type == null) type = "b32";
                int es = typeSize(type);
                int len = 1;
                for (PtxParser.ArraySuffixContext a : p.arraySuffix()) {
                    len *= a.INT() == null ? 0 : (int) parseInt(a.INT().getText());
                }
                if (align == 0) align = es;
                offset = (offset + align - 1) / align * align;
                String name = p.name == null ? "" : p.name.getText();
                out.add(new Param(
                        name, p.space.getText().substring(1), type, es, len, align, offset, ptrSpace, ptrAlign));
                offset += es * len;
            }
            return out;
        }

        // ---------------------------------------------------------------------------------------- bodies

        private static final class LocState {
            DebugLoc current;
            final Map<Long, DebugLoc> byKey = new HashMap<>();
        }

        private void body(
                List<PtxParser.StatementContext> stmts,
                List<RegisterDecl> regs,
                List<Variable> locals,
                List<Instruction> ins,
                LocState loc,
                DebugLoc[] firstLoc) {
            for (PtxParser.StatementContext s : stmts) {
                ParseTree c = s.getChild(0);
                if (c instanceof PtxParser.InstructionContext i) {
                    Instruction in = instruction(i);
                    setLoc(in, loc.current);
                    ins.add(in);
                } else if (c instanceof PtxParser.LocDirectiveContext l) {
                    loc.current = loc(l, loc);
                    if (firstLoc[0] == null && loc.current != null) firstLoc[0] = loc.current;
                } else if (c instanceof PtxParser.RegDeclContext r) {
                    regDecl(r, regs);
                } else if (c instanceof PtxParser.VariableDeclContext v) {
                    variableDecl(v, locals);
                } else if (s.getStart().getType() == PtxLexer.LBRACE) {
                    body(s.statement(), regs, locals, ins, loc, firstLoc);
                }
            }
        }

        private static void setLoc(Instruction in, DebugLoc l) {
            Access.setLoc(in, l);
        }

        private DebugLoc loc(PtxParser.LocDirectiveContext l, LocState st) {
            int file = (int) parseInt(l.file.getText());
            int line = (int) parseInt(l.line.getText());
            int col = (int) parseInt(l.col.getText());
            if (line == 0) return null;
            String fn = null;
            List<SourcePos> chain = new ArrayList<>(0);
            for (PtxParser.LocAttrContext a : l.locAttr()) {
                String key = a.getStart().getText();
                if (key.equals("function_name") && a.getChildCount() > 1) {
                    fn = a.getChild(1).getText();
                } else if (key.equals("inlined_at") && a.INT().size() == 3) {
                    int f = (int) parseInt(a.INT(0).getText());
                    int ln = (int) parseInt(a.INT(1).getText());
                    int c = (int) parseInt(a.INT(2).getText());
                    chain.add(new SourcePos(f, files.get(f), ln, c));
                    DebugLoc outer = st.byKey.get(key(f, ln, c));
                    if (outer != null) chain.addAll(outer.inlinedAt());
                }
            }
            DebugLoc d = new DebugLoc(new SourcePos(file, files.get(file), line, col), fn, chain);
            st.byKey.put(key(file, line, col), d);
            return d;
        }

        private static long key(int f, int l, int c) {
            return ((long) f << 48) ^ ((long) l << 16) ^ c;
        }

        private void regDecl(PtxParser.RegDeclContext r, List<RegisterDecl> regs) {
            String type = "b32";
            int vw = 1;
            for (PtxParser.DeclSpecContext d : r.declSpec()) {
                String s = d.getStart().getText().substring(1);
                if (s.equals("v2")) vw = 2;
                else if (s.equals("v4")) vw = 4;
                else if (s.equals("v8")) vw = 8;
                else if (typeSize(s) > 0 || s.equals("pred")) type = s;
            }
            for (PtxParser.RegItemContext it : r.regItem()) {
                if (it.name.getType() == PtxLexer.ID) plainRegs.add(it.name.getText());
                int count = it.count == null ? 0 : (int) parseInt(it.count.getText());
                regs.add(new RegisterDecl(type, it.name.getText(), count, vw));
            }
        }

        private void variableDecl(PtxParser.VariableDeclContext v, List<Variable> out) {
            String linkage = null;
            for (PtxParser.LinkageContext l : v.linkage())
                linkage = l.getStart().getText().substring(1);
            String space = v.space.getText().substring(1);
            String type = null;
            int align = 0;
            for (PtxParser.DeclSpecContext d : v.declSpec()) {
                Token t = d.getStart();
                if (t.getType() == PtxLexer.ALIGN) {
                    align = (int) parseInt(d.INT().getText());
                } else if (t.getType() == PtxLexer.DOTID && d.getChildCount() == 1 && type == null) {
                    type = t.getText().substring(1);
                }
            }
            if (type == null) type = "b8";
            int es = Math.max(0, typeSize(type));
            if (align == 0) align = Math.max(1, es);
            for (PtxParser.VarItemContext it : v.varItem()) {
                long len = 1;
                for (PtxParser.ArraySuffixContext a : it.arraySuffix()) {
                    if (a.INT() == null) {
                        len = -1;
                        break;
                    }
                    len *= parseInt(a.INT().getText());
                }
                if (it.count != null) len = parseInt(it.count.getText());
                byte[] init = null;
                Map<Integer, String> syms = Map.of();
                if (it.initializer() != null) {
                    List<Object> elems = new ArrayList<>();
                    flatten(it.initializer(), elems);
                    if (len < 0) len = elems.size();
                    long size = es * len;
                    if (size >= 0 && size <= (1 << 28)) {
                        init = new byte[(int) size];
                        Map<Integer, String> sm = new HashMap<>();
                        boolean isFloat = type.startsWith("f");
                        for (int k = 0; k < elems.size() && (long) (k + 1) * es <= size; k++) {
                            Object e = elems.get(k);
                            long bits;
                            if (e instanceof Operand.IntImm im) {
                                bits = isFloat ? floatBits(type, im.value()) : im.value();
                            } else if (e instanceof Operand.FloatImm fi) {
                                bits = convertFloatBits(fi, type);
                            } else {
                                sm.put(k * es, e.toString());
                                bits = 0;
                            }
                            for (int b = 0; b < es; b++) init[k * es + b] = (byte) (bits >>> (8 * b));
                        }
                        syms = sm;
                    }
                }
                out.add(new Variable(
                        it.name.getText(),
                        space,
                        linkage,
                        type,
                        es,
                        len,
                        align,
                        init,
                        syms,
                        it.getStart().getLine()));
            }
        }

        private static long floatBits(String type, long v) {
            if (type.equals("f64")) return Double.doubleToRawLongBits(v);
            if (type.equals("f32")) return Float.floatToRawIntBits(v) & 0xFFFFFFFFL;
            return v;
        }

        private static long convertFloatBits(Operand.FloatImm fi, String type) {
            if (type.equals("f64")) return fi.isDouble() ? fi.bits() : Double.doubleToRawLongBits(fi.value());
            if (type.equals("f32"))
                return fi.isDouble() ? Float.floatToRawIntBits((float) fi.value()) & 0xFFFFFFFFL : fi.bits();
            return fi.bits();
        }

        private void flatten(PtxParser.InitializerContext init, List<Object> out) {
            if (init.getStart().getType() == PtxLexer.LBRACE) {
                for (PtxParser.InitializerContext c : init.initializer()) flatten(c, out);
            } else if (init.ID() != null) {
                out.add(new Operand.Symbol(init.expr().getStart().getText()));
            } else {
                Operand o = expr(init.expr());
                out.add(
                        o instanceof Operand.IntImm || o instanceof Operand.FloatImm
                                ? o
                                : new Operand.Symbol(o.toString()));
            }
        }

        private Instruction instruction(PtxParser.InstructionContext i) {
            Operand.Reg guard = null;
            boolean neg = false;
            String opcode = null;
            List<String> mods = new ArrayList<>(4);
            List<Operand> ops = new ArrayList<>(3);
            int n = i.getChildCount();
            for (int k = 0; k < n; k++) {
                ParseTree c = i.getChild(k);
                if (c instanceof PtxParser.GuardContext g) {
                    neg = g.neg != null;
                    guard = new Operand.Reg(g.pred.getText(), null);
                } else if (c instanceof PtxParser.ModifierContext m) {
                    mods.add(m.getStart().getText().substring(1).intern());
                } else if (c instanceof PtxParser.OperandContext o) {
                    ops.add(operand(o));
                } else if (c instanceof TerminalNode t && t.getSymbol() == i.opcode) {
                    opcode = t.getText().intern();
                }
            }
            int start = i.getStart().getStartIndex();
            int stop = i.getStop().getStopIndex() + 1;
            return new Instruction(
                    i.getStart().getLine(),
                    start,
                    stop,
                    guard,
                    neg,
                    opcode,
                    modifierLists.computeIfAbsent(mods, List::copyOf),
                    List.copyOf(ops),
                    normalize(start, stop));
        }

        private String normalize(int start, int stop) {
            StringBuilder sb = new StringBuilder(stop - start);
            boolean space = false;
            for (int k = start; k < stop; k++) {
                char ch = text.charAt(k);
                if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
                    space = sb.length() > 0;
                } else {
                    if (space
                            && !(ch == ',' || ch == ';' || ch == ')' || ch == ']' || ch == '}')
                            && !(sb.charAt(sb.length() - 1) == '('
                                    || sb.charAt(sb.length() - 1) == '['
                                    || sb.charAt(sb.length() - 1) == '{')) {
                        sb.append(' ');
                    }
                    space = false;
                    sb.append(ch);
                }
            }
            return sb.toString();
        }

        private Operand operand(PtxParser.OperandContext o) {
            if (o instanceof PtxParser.ExprOperandContext e) return expr(e.expr());
            if (o instanceof PtxParser.VectorOperandContext v) return new Operand.Vector(operands(v.operand()));
            if (o instanceof PtxParser.ParenOperandContext p) return new Operand.ParenList(operands(p.operand()));
            if (o instanceof PtxParser.AddressOperandContext a) {
                List<PtxParser.OperandContext> parts = a.operand();
                Operand first = operand(parts.get(0));
                List<Operand> extra = parts.size() > 1 ? operands(parts.subList(1, parts.size())) : List.of();
                if (first instanceof Operand.Offset off) return new Operand.Address(off.base(), off.offset(), extra);
                if (first instanceof Operand.IntImm im) return new Operand.Address(null, im.value(), extra);
                return new Operand.Address(first, 0, extra);
            }
            if (o instanceof PtxParser.NotOperandContext n) return new Operand.Not(operand(n.operand()));
            if (o instanceof PtxParser.PredPairOperandContext p) {
                return new Operand.PredPair(
                        new Operand.Reg(p.getChild(0).getText(), null),
                        new Operand.Reg(p.getChild(2).getText(), null));
            }
            return new Operand.Symbol(o.getStart().getText());
        }

        private List<Operand> operands(List<PtxParser.OperandContext> l) {
            List<Operand> out = new ArrayList<>(l.size());
            for (PtxParser.OperandContext c : l) out.add(operand(c));
            return List.copyOf(out);
        }

        private Operand expr(PtxParser.ExprContext e) {
            int n = e.getChildCount();
            Operand first = term((PtxParser.TermContext) e.getChild(0));
            if (n == 1) return first;
            long sum = 0;
            Operand base = first instanceof Operand.IntImm im0 ? null : first;
            if (base == null) sum = ((Operand.IntImm) first).value();
            for (int k = 1; k + 1 < n; k += 2) {
                boolean minus = e.getChild(k).getText().equals("-");
                Operand t = term((PtxParser.TermContext) e.getChild(k + 1));
                if (t instanceof Operand.IntImm im) {
                    sum += minus ? -im.value() : im.value();
                } else if (base == null && !minus) {
                    base = t;
                } else {
                    return new Operand.Symbol(text.substring(
                            e.getStart().getStartIndex(), e.getStop().getStopIndex() + 1));
                }
            }
            return base == null ? new Operand.IntImm(sum) : new Operand.Offset(base, sum);
        }

        private Operand term(PtxParser.TermContext t) {
            if (t instanceof PtxParser.RegisterTermContext r) {
                return new Operand.Reg(
                        r.REGISTER().getText().intern(),
                        r.DOTID() == null ? null : r.DOTID().getText().substring(1));
            }
            if (t instanceof PtxParser.SymbolTermContext s) {
                String name = s.ID().getText();
                if (name.equals("_")) return new Operand.Sink();
                return plainRegs.contains(name) ? new Operand.Reg(name, null) : new Operand.Symbol(name);
            }
            if (t instanceof PtxParser.IntTermContext i) {
                long v = parseInt(i.INT().getText());
                return new Operand.IntImm(i.sign != null ? -v : v);
            }
            if (t instanceof PtxParser.HexFloatTermContext h) {
                String s = h.HEX_FLOAT().getText();
                boolean dbl = s.charAt(1) == 'd' || s.charAt(1) == 'D';
                long bits = Long.parseUnsignedLong(s.substring(2), 16);
                if (h.sign != null) bits ^= dbl ? Long.MIN_VALUE : 0x80000000L;
                if (!dbl) bits &= 0xFFFFFFFFL;
                return new Operand.FloatImm(bits, dbl);
            }
            if (t instanceof PtxParser.DecFloatTermContext d) {
                double v = Double.parseDouble(d.DEC_FLOAT().getText());
                return new Operand.FloatImm(Double.doubleToRawLongBits(d.sign != null ? -v : v), true);
            }
            if (t instanceof PtxParser.ParenTermContext p) return expr(p.expr());
            return new Operand.Symbol(t.getText());
        }

        static long parseInt(String s) {
            String t = s;
            if (t.endsWith("U") || t.endsWith("u")) t = t.substring(0, t.length() - 1);
            if (t.length() > 2 && t.charAt(0) == '0' && (t.charAt(1) == 'x' || t.charAt(1) == 'X')) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            if (t.length() > 2 && t.charAt(0) == '0' && (t.charAt(1) == 'b' || t.charAt(1) == 'B')) {
                return Long.parseUnsignedLong(t.substring(2), 2);
            }
            return Long.parseUnsignedLong(t);
        }

        private static String unquote(String s) {
            if (s.length() >= 2 && s.startsWith("\"")) s = s.substring(1, s.length() - 1);
            return s.replace("\\\\", "\\").replace("\\\"", "\"");
        }
    }

    /** Size in bytes of a PTX scalar type (b8..b128, u/s/f, f16x2 ...), 0 for pred/opaque types, -1 unknown. */
    public static int typeSize(String t) {
        return switch (t) {
            case "b8", "u8", "s8", "e4m3", "e5m2" -> 1;
            case "b16", "u16", "s16", "f16", "bf16", "e4m3x2", "e5m2x2" -> 2;
            case "b32", "u32", "s32", "f32", "f16x2", "bf16x2", "tf32" -> 4;
            case "b64", "u64", "s64", "f64", "f32x2" -> 8;
            case "b128" -> 16;
            case "pred" -> 1;
            default -> -1;
        };
    }
}
