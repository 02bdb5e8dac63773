package dev.numlint.cuda;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/** Prints the preprocessed tokens of one file between two lines (front-end debugging aid). */
public final class CudaDebugMain {
    private CudaDebugMain() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--parse")) {
            String src = new String(Files.readAllBytes(Path.of(args[1])), StandardCharsets.UTF_8);
            List<PToken> all = new Preprocessor(new HashMap<>(), null).run(src);
            FileScope scope = new FileScope();
            TopLevelSplitter sp = new TopLevelSplitter(all, scope, true);
            sp.split();
            for (TopLevelSplitter.FunctionDef f : sp.functions) {
                List<org.antlr.v4.runtime.CommonToken> body = new java.util.ArrayList<>();
                for (int i = f.bodyStart; i <= f.bodyEnd; i++) {
                    PToken t = all.get(i);
                    t.setTokenIndex(body.size());
                    body.add(t);
                }
                var p = new dev.numlint.cuda.parser.CudaParser(
                        new org.antlr.v4.runtime.CommonTokenStream(new org.antlr.v4.runtime.ListTokenSource(body)));
                p.setTypeNames(n -> scope.isTypeName(n) || f.templateParams.contains(n));
                p.getInterpreter().setPredictionMode(org.antlr.v4.runtime.atn.PredictionMode.LL);
                System.out.println("== " + f.name + " tparams=" + f.templateParams);
                var tree = p.functionBody();
                if (args.length > 2) System.out.println(tree.toStringTree(p));
            }
            return;
        }
        String text = new String(Files.readAllBytes(Path.of(args[0])), StandardCharsets.UTF_8);
        int from = Integer.parseInt(args[1]);
        int to = Integer.parseInt(args[2]);
        List<PToken> toks = new Preprocessor(new HashMap<>(), null).run(text);
        StringBuilder sb = new StringBuilder();
        int line = -1;
        for (PToken t : toks) {
            if (t.getLine() < from || t.getLine() > to) continue;
            if (t.getLine() != line) {
                sb.append('\n').append(t.getLine()).append(": ");
                line = t.getLine();
            }
            sb.append(t.getText())
                    .append('[')
                    .append(dev.numlint.cuda.parser.CudaLexer.VOCABULARY.getSymbolicName(t.getType()))
                    .append("] ");
        }
        System.out.println(sb);
    }
}
