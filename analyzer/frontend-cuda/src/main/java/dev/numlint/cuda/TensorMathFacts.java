package dev.numlint.cuda;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.NumericFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The NL012 facts of one function body, from its tokens (templates and library constants need no parse tree):
 * reduced-precision cuBLAS/cuDNN modes passed to a call or assigned, WMMA {@code precision::tf32} fragments, and
 * half/bfloat16 matrix fragments in a function that converts float data for them.
 */
final class TensorMathFacts {
    private final List<PToken> toks;
    private final FunctionFacts facts;
    private final boolean device;
    private final boolean host;
    private final BiFunction<Integer, Integer, String> text;

    TensorMathFacts(
            List<PToken> toks,
            FunctionFacts facts,
            boolean device,
            boolean host,
            BiFunction<Integer, Integer, String> text) {
        this.toks = toks;
        this.facts = facts;
        this.device = device;
        this.host = host;
        this.text = text;
    }

    /**
     * Tensor-core math on float data (NL012), from the tokens: cuBLAS/cuDNN mode constants that allow reduced
     * precision passed to a call, WMMA fragments with precision::tf32, and half/bfloat16 matrix fragments in a
     * function that converts float data to half/bfloat16 (or TF32) for them.
     */
    void scan() {
        int n = toks.size();
        List<Integer> conversions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            PToken t = toks.get(i);
            if (t.getType() == CudaLexer.IDENTIFIER && NumericFacts.TO_REDUCED_PRECISION.contains(t.getText())) {
                conversions.add(i);
            }
        }
        boolean tf32Fragment = false;
        int convLine;
        int toTf32 = -1;
        for (int i = 0; i < n; i++) {
            PToken t = toks.get(i);
            if (t.getType() != CudaLexer.IDENTIFIER) continue;
            String w = t.getText();
            if (w.equals("__float_to_tf32")
                    && toTf32 < 0
                    && i + 1 < n
                    && toks.get(i + 1).getType() == CudaLexer.LPAREN) {
                toTf32 = i;
                continue;
            }
            String effect = NumericFacts.REDUCED_PRECISION_MODES.get(w);
            if (effect != null) {
                // an argument of a call (cublasSetMathMode(h, MODE)) or the value of an assignment (type = MODE),
                // also inside casts and flag combinations: (cublasMath_t)(MODE | CUBLAS_MATH_DISALLOW_...)
                int open = enclosingCall(i);
                boolean call = open > 0;
                boolean assigned = !call && assignedValue(i);
                if (!call && !assigned) continue;
                int start = call ? open - 1 : i;
                int end = call ? Decls.match(toks, open, n) : i;
                facts.tensorMath.add(
                        new FunctionFacts.TensorMath(tokenSite(i, start, Math.min(end, n - 1)), w, effect, null));
            } else if (w.equals("fragment") && i + 1 < n && toks.get(i + 1).getType() == CudaLexer.LT) {
                int close = angleClose(i + 1);
                String args = close < 0 ? "" : text.apply(i + 2, close - 1).replace(" ", "");
                int s0 = i >= 2 && toks.get(i - 1).getType() == CudaLexer.SCOPE ? i - 2 : i;
                int e0 = close < 0 ? i : close;
                if (args.contains("precision::tf32")) {
                    tf32Fragment = true;
                    facts.tensorMath.add(new FunctionFacts.TensorMath(
                            tokenSite(s0, s0, e0), "precision::tf32", "float data rounded to TF32", null));
                } else if ((args.startsWith("matrix_a")
                                || args.startsWith("wmma::matrix_a")
                                || args.startsWith("nvcuda::wmma::matrix_a")
                                || args.contains("matrix_b"))
                        && (args.contains(",half,")
                                || args.contains(",__half,")
                                || args.contains(",__nv_bfloat16,")
                                || args.contains("precision::bf16"))
                        && (convLine = convertedInto(fragmentNames(close), conversions)) > 0) {
                    facts.tensorMath.add(new FunctionFacts.TensorMath(
                            tokenSite(s0, s0, e0),
                            args.contains("bf16") || args.contains("bfloat16") ? "bf16 fragment" : "half fragment",
                            args.contains("bf16") || args.contains("bfloat16")
                                    ? "float data rounded to BF16"
                                    : "float data rounded to FP16",
                            "line " + convLine));
                }
            }
        }
        if (toTf32 >= 0 && !tf32Fragment) {
            // an explicit rounding of float data to TF32 (10 mantissa bits) for tensor-core math, without a
            // precision::tf32 fragment here that is reported already
            int s0 = toTf32 >= 2 && toks.get(toTf32 - 1).getType() == CudaLexer.SCOPE ? toTf32 - 2 : toTf32;
            int e0 = Decls.match(toks, toTf32 + 1, n);
            facts.tensorMath.add(new FunctionFacts.TensorMath(
                    tokenSite(toTf32, s0, Math.min(e0 < 0 ? toTf32 : e0, n - 1)),
                    "__float_to_tf32",
                    "float data rounded to TF32",
                    null));
        }
    }

    /** The variables declared by a fragment declaration whose template argument list closes at {@code close}. */
    private Set<String> fragmentNames(int close) {
        Set<String> names = new HashSet<>();
        if (close < 0) return names;
        int depth = 0;
        for (int k = close + 1; k < toks.size() && k < close + 64; k++) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE) break;
            if (ty == CudaLexer.LBRACKET || ty == CudaLexer.LPAREN) depth++;
            else if (ty == CudaLexer.RBRACKET || ty == CudaLexer.RPAREN) depth--;
            else if (depth == 0 && ty == CudaLexer.IDENTIFIER)
                names.add(toks.get(k).getText());
        }
        return names;
    }

    /**
     * The line of a float-to-half/bfloat16/TF32 conversion whose result reaches one of the fragments: stored into
     * the memory a {@code load_matrix_sync} of the fragment reads, into the fragment's elements, or into a local
     * that is then stored there; 0 when none does (a conversion of the results, for instance). A conversion whose
     * destination cannot be read from the tokens counts, as before.
     */
    private int convertedInto(Set<String> fragments, List<Integer> conversions) {
        if (conversions.isEmpty() || fragments.isEmpty()) return 0;
        Set<String> sinks = new HashSet<>(fragments);
        int n = toks.size();
        for (int i = 0; i + 2 < n; i++) {
            if (!toks.get(i).getText().equals("load_matrix_sync")) continue;
            if (toks.get(i + 1).getType() != CudaLexer.LPAREN) continue;
            int close = Decls.match(toks, i + 1, n);
            if (close < 0) continue;
            List<Set<String>> args = argumentNames(i + 1, close);
            if (args.size() >= 2 && !java.util.Collections.disjoint(args.get(0), fragments)) sinks.addAll(args.get(1));
        }
        for (int c : conversions) {
            int start = statementStart(c);
            int eq = -1;
            for (int k = start; k < c; k++) {
                if (toks.get(k).getType() == CudaLexer.ASSIGN) {
                    eq = k;
                    break;
                }
            }
            if (eq < 0) return toks.get(c).getLine(); // an argument or a return: destination unknown
            Set<String> lhs = identifiers(start, eq);
            boolean store = hasType(start, eq, CudaLexer.LBRACKET) || hasType(start, eq, CudaLexer.DOT);
            if (store && !java.util.Collections.disjoint(lhs, sinks))
                return toks.get(c).getLine();
            if (!store && eq > start) {
                // a local (half h = __float2half(x);) later stored into the fragment's memory
                String local = toks.get(eq - 1).getText();
                for (int k = c; k < n; k++) {
                    if (toks.get(k).getType() != CudaLexer.ASSIGN) continue;
                    int s2 = statementStart(k);
                    int e2 = statementEnd(k);
                    if (identifiers(k + 1, e2).contains(local)
                            && !java.util.Collections.disjoint(identifiers(s2, k), sinks)) {
                        return toks.get(c).getLine();
                    }
                }
            }
        }
        return 0;
    }

    private List<Set<String>> argumentNames(int open, int close) {
        List<Set<String>> args = new ArrayList<>();
        Set<String> cur = new HashSet<>();
        int depth = 0;
        for (int k = open + 1; k < close; k++) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET) depth--;
            else if (ty == CudaLexer.COMMA && depth == 0) {
                args.add(cur);
                cur = new HashSet<>();
            } else if (ty == CudaLexer.IDENTIFIER) cur.add(toks.get(k).getText());
        }
        args.add(cur);
        return args;
    }

    private int statementStart(int i) {
        for (int k = i - 1; k >= 0; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE || ty == CudaLexer.RBRACE) return k + 1;
        }
        return 0;
    }

    private int statementEnd(int i) {
        for (int k = i; k < toks.size(); k++) {
            if (toks.get(k).getType() == CudaLexer.SEMI) return k;
        }
        return toks.size();
    }

    private Set<String> identifiers(int from, int to) {
        Set<String> out = new HashSet<>();
        for (int k = from; k < to && k < toks.size(); k++) {
            if (toks.get(k).getType() == CudaLexer.IDENTIFIER)
                out.add(toks.get(k).getText());
        }
        return out;
    }

    private boolean hasType(int from, int to, int type) {
        for (int k = from; k < to; k++) if (toks.get(k).getType() == type) return true;
        return false;
    }

    /**
     * Index of the '(' of the call whose argument list contains token {@code i}, looking through the parentheses of
     * casts and grouping ({@code (cublasMath_t)(A | B)}, {@code static_cast<T>(A)}), or -1.
     */
    private int enclosingCall(int i) {
        int at = i;
        for (int guard = 0; guard < 8; guard++) {
            int open = enclosingParen(at);
            if (open <= 0) return -1;
            int before = toks.get(open - 1).getType();
            if (before == CudaLexer.IDENTIFIER) return open;
            at = open; // a cast, a grouping or static_cast<..>(..): look further out
        }
        return -1;
    }

    /** Whether token {@code i} is in the value of an assignment or initialisation ({@code x = (T)(MODE | F)}). */
    private boolean assignedValue(int i) {
        int depth = 0;
        for (int k = i - 1; k >= 0 && k > i - 32; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RPAREN) depth++;
            else if (ty == CudaLexer.LPAREN) depth--;
            else if (ty == CudaLexer.ASSIGN) return true;
            else if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE || ty == CudaLexer.RBRACE) return false;
            if (depth > 0 && ty == CudaLexer.SEMI) return false;
        }
        return false;
    }

    /** Index of the '(' of the call whose argument list contains token {@code i}, or -1. */
    private int enclosingParen(int i) {
        int depth = 0;
        for (int k = i - 1; k >= 0; k--) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.RPAREN) depth++;
            else if (ty == CudaLexer.LPAREN) {
                if (depth == 0) return k;
                depth--;
            } else if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE || ty == CudaLexer.RBRACE) {
                return -1;
            }
        }
        return -1;
    }

    /** Index of the '>' closing the template argument list opened at {@code open}, or -1. */
    private int angleClose(int open) {
        int depth = 0;
        for (int k = open; k < toks.size() && k < open + 64; k++) {
            int ty = toks.get(k).getType();
            if (ty == CudaLexer.LT) depth++;
            else if (ty == CudaLexer.GT && --depth == 0) return k;
            else if (ty == CudaLexer.SEMI) return -1;
        }
        return -1;
    }

    /** A site at token {@code at} whose text is that of tokens {@code a..b}. */
    private Site tokenSite(int at, int a, int b) {
        return Reporter.Pos.of(toks.get(at), toks.get(Math.max(at, b))).site(text.apply(a, b), device, host, null);
    }
}
