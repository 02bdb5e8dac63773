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
        for (int i = 0; i < n; i++) {
            PToken t = toks.get(i);
            if (t.getType() != CudaLexer.IDENTIFIER) continue;
            String w = t.getText();
            String effect = NumericFacts.REDUCED_PRECISION_MODES.get(w);
            if (effect != null) {
                // an argument of a call (cublasSetMathMode(h, MODE)) or the value of an assignment (type = MODE)
                int open = enclosingParen(i);
                boolean call = open > 0 && toks.get(open - 1).getType() == CudaLexer.IDENTIFIER;
                boolean assigned = i > 0 && toks.get(i - 1).getType() == CudaLexer.ASSIGN;
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
