package dev.numlint.cuda;

import dev.numlint.cuda.facts.FunctionFacts;
import dev.numlint.cuda.facts.Site;
import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.NumericFacts;
import java.util.List;
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
        int convLine = 0;
        for (PToken t : toks) {
            if (t.getType() == CudaLexer.IDENTIFIER && NumericFacts.TO_REDUCED_PRECISION.contains(t.getText())) {
                convLine = t.getLine();
                break;
            }
        }
        boolean tf32Fragment = false;
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
                        && convLine > 0) {
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
