package dev.numlint.cuda;

import dev.numlint.cuda.parser.CudaLexer;
import dev.numlint.knowledge.RandomGenerators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The calls that draw a random number: the C, CUDA and HIP library generators ({@code rand}, {@code drand48},
 * {@code curand_uniform}, {@code hiprand_normal} ...) and project functions whose name has a {@code rand},
 * {@code rng} or {@code random} component ({@code rand_uniform01}, {@code randUniform}, {@code rng.next()}: the name
 * is split on underscores, case changes and digits, so {@code operand} and {@code brand} are not draws). A project
 * function of the translation unit whose returned value is computed from a draw is one too ({@link #returnsDraw}).
 * Seeding and set-up calls ({@code curand_init}, {@code srand}, {@code rng_seed}) draw nothing.
 */
final class RandomDraws {
    // patterns compiled once (String.matches compiles its pattern on every call)
    static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("[A-Za-z_]\\w*");

    static final java.util.regex.Pattern LOWER_WORD = java.util.regex.Pattern.compile("[a-z_]+");

    private RandomDraws() {}

    /** {@link RandomGenerators#components}. */
    static List<String> components(String name) {
        return RandomGenerators.components(name);
    }

    /** {@link RandomGenerators#isGeneratorType}. */
    static boolean isGeneratorType(String name) {
        return RandomGenerators.isGeneratorType(name);
    }

    /**
     * The variables declared in {@code t} with a generator type ({@link #isGeneratorType}): {@code
     * std::normal_distribution<float> dist(0.f, 1.f)} gives {@code dist}.
     */
    static Set<String> generatorVariables(List<PToken> t) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i + 1 < t.size(); i++) {
            if (t.get(i).getType() != CudaLexer.IDENTIFIER
                    || !typePosition(t.get(i + 1).getType())
                    || !isGeneratorType(t.get(i).getText())) continue;
            int j = i + 1;
            if (t.get(j).getType() == CudaLexer.LT) {
                int depth = 0;
                for (; j < t.size(); j++) {
                    int ty = t.get(j).getType();
                    if (ty == CudaLexer.LT) depth++;
                    else if (ty == CudaLexer.GT && --depth == 0) break;
                    else if (ty == CudaLexer.SEMI || ty == CudaLexer.LBRACE) break;
                }
                j++;
            }
            while (j < t.size()
                    && (t.get(j).getType() == CudaLexer.AMP || t.get(j).getType() == CudaLexer.STAR)) j++;
            if (j + 1 < t.size() && t.get(j).getType() == CudaLexer.IDENTIFIER) {
                int next = t.get(j + 1).getType();
                if (next == CudaLexer.LPAREN
                        || next == CudaLexer.LBRACE
                        || next == CudaLexer.SEMI
                        || next == CudaLexer.ASSIGN
                        || next == CudaLexer.COMMA
                        || next == CudaLexer.RPAREN) out.add(t.get(j).getText());
            }
        }
        return out;
    }

    /** {@link RandomGenerators#isGenerator}. */
    static boolean isGenerator(String name) {
        return RandomGenerators.isGenerator(name);
    }

    /** {@link RandomGenerators#isGeneratorMember}. */
    static boolean isGeneratorMember(String object, String member) {
        return RandomGenerators.isGeneratorMember(object, member);
    }

    /**
     * Whether a call of {@code name} draws: a generator by its name, or a function of the translation unit known to
     * return a draw ({@code scope}).
     */
    static boolean draws(String name, FileScope scope) {
        if (isGenerator(name)) return true;
        if (name == null || scope == null) return false;
        int q = name.lastIndexOf("::");
        return scope.randomFunctions.contains(q >= 0 ? name.substring(q + 2) : name);
    }

    /**
     * Whether the function body between the braces {@code open} and {@code close} returns a value computed from a
     * draw: a {@code return} whose expression calls a generator (or a function already known to draw), directly or
     * through a local variable assigned from one earlier in the body.
     */
    static boolean returnsDraw(List<PToken> t, int open, int close, FileScope scope) {
        Set<String> randomLocals = new HashSet<>();
        for (int i = open + 1; i < close && i < t.size(); i++) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.RETURN) {
                int end = statementEnd(t, i + 1, close);
                if (drawIn(t, i + 1, end, scope, randomLocals)) return true;
                i = end;
            } else if (ty == CudaLexer.IDENTIFIER
                    && i + 1 < close
                    && t.get(i + 1).getType() == CudaLexer.ASSIGN
                    && (i == 0
                            || t.get(i - 1).getType() != CudaLexer.DOT
                                    && t.get(i - 1).getType() != CudaLexer.ARROW)) {
                int end = expressionEnd(t, i + 2, close);
                if (drawIn(t, i + 2, end, scope, randomLocals))
                    randomLocals.add(t.get(i).getText());
                else randomLocals.remove(t.get(i).getText());
            }
        }
        return false;
    }

    /** Whether tokens {@code [from, to)} call a generator or read a local assigned from one. */
    static boolean drawIn(List<PToken> t, int from, int to, FileScope scope, Set<String> randomLocals) {
        for (int i = from; i < to; i++) {
            if (t.get(i).getType() != CudaLexer.IDENTIFIER) continue;
            String n = t.get(i).getText();
            boolean call = i + 1 < t.size() && t.get(i + 1).getType() == CudaLexer.LPAREN;
            boolean member = i > 0
                    && (t.get(i - 1).getType() == CudaLexer.DOT || t.get(i - 1).getType() == CudaLexer.ARROW);
            if (call && member && i >= 2 && t.get(i - 2).getType() == CudaLexer.IDENTIFIER) {
                if (isGeneratorMember(t.get(i - 2).getText(), n)) return true;
            } else if (call && draws(n, scope)) {
                return true;
            } else if (!call && !member && randomLocals.contains(n)) {
                return true;
            }
        }
        return false;
    }

    /** The index of the {@code ;} ending the statement that starts at {@code from} (or {@code limit}). */
    static int statementEnd(List<PToken> t, int from, int limit) {
        int depth = 0;
        for (int i = from; i < limit; i++) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) depth--;
            else if (ty == CudaLexer.SEMI && depth <= 0) return i;
            if (depth < 0) return i;
        }
        return limit;
    }

    /** The end of an assignment's right-hand side: a {@code ;} or {@code ,} at its depth, or a closing bracket. */
    static int expressionEnd(List<PToken> t, int from, int limit) {
        int depth = 0;
        for (int i = from; i < limit; i++) {
            int ty = t.get(i).getType();
            if (ty == CudaLexer.LPAREN || ty == CudaLexer.LBRACKET || ty == CudaLexer.LBRACE) depth++;
            else if (ty == CudaLexer.RPAREN || ty == CudaLexer.RBRACKET || ty == CudaLexer.RBRACE) depth--;
            else if ((ty == CudaLexer.SEMI || ty == CudaLexer.COMMA) && depth == 0) return i;
            if (depth < 0) return i;
        }
        return limit;
    }

    /** The most rounds of {@link #propagate} over the translation unit. */
    private static final int MAX_ROUNDS = 6;

    /**
     * Random state across the functions of one translation unit: which parameters hold a random variate at every call
     * site ({@link FileScope#variateParams}), what a function writes through its pointer parameters that is one
     * ({@link FileScope#variateWrites}), and which functions return one ({@link FileScope#randomFunctions}). A photon
     * position updated by a random step, passed as {@code &p} to every caller of {@code move(MCXpos *p)}, makes
     * {@code p->x} a random variate inside {@code move}. Computed as a least fixed point from the draws: a
     * translation unit without any draw has no random state at all.
     */
    static void propagate(List<PToken> t, List<TopLevelSplitter.FunctionDef> fns, FileScope scope) {
        scope.draws = anyDraw(t, scope);
        if (!scope.draws) return;
        Set<String> defined = new HashSet<>();
        Set<String> overloaded = new HashSet<>();
        for (TopLevelSplitter.FunctionDef f : fns) {
            if (f.global || f.className != null) continue;
            if (!defined.add(f.name)) overloaded.add(f.name); // whose call is whose is not decided here
        }
        defined.removeAll(overloaded);
        // the local generators of each body: the same in every round
        List<Set<String>> generators = new ArrayList<>(fns.size());
        for (TopLevelSplitter.FunctionDef f : fns)
            generators.add(generatorVariables(t.subList(f.bodyStart, f.bodyEnd + 1)));
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<String, List<Set<String>>> params = new HashMap<>();
            Set<String> opaque = new HashSet<>();
            Map<String, List<Set<String>>> writes = new HashMap<>();
            Set<String> returns = new HashSet<>();
            for (int k = 0; k < fns.size(); k++) {
                TopLevelSplitter.FunctionDef f = fns.get(k);
                RandomVariates v = new RandomVariates(
                        t,
                        f.bodyStart,
                        f.bodyEnd,
                        f.className == null ? f.name : null,
                        f.paramNames,
                        scope,
                        generators.get(k));
                if ((f.ret.isFpScalar() || f.ret.isInteger()) && v.returnsVariate()) returns.add(f.name);
                List<Set<String>> w = v.writes(f.paramTypes);
                writes.merge(f.name, w, dev.numlint.cuda.facts.CallSiteKeys::intersect);
                v.callSites(defined, params, opaque);
            }
            for (String o : opaque) params.remove(o);
            for (TopLevelSplitter.FunctionDef f : fns) {
                if (f.global || !defined.contains(f.name)) params.remove(f.name);
            }
            writes.values().removeIf(l -> l.stream().allMatch(Set::isEmpty));
            params.values().removeIf(l -> l.stream().allMatch(Set::isEmpty));
            boolean changed = !params.equals(scope.variateParams)
                    || !writes.equals(scope.variateWrites)
                    || !scope.randomFunctions.containsAll(returns);
            scope.variateParams.clear();
            scope.variateParams.putAll(params);
            scope.variateWrites.clear();
            scope.variateWrites.putAll(writes);
            scope.randomFunctions.addAll(returns);
            if (!changed) break;
        }
    }

    /** Whether the translation unit calls a generator anywhere (a library, project or {@code <random>} one). */
    static boolean anyDraw(List<PToken> t, FileScope scope) {
        if (!scope.randomFunctions.isEmpty()) return true;
        // a unit calls the same few functions and names the same few types again and again: each name is asked once
        Set<String> calls = new HashSet<>();
        Set<String> types = new HashSet<>();
        for (int i = 0; i + 1 < t.size(); i++) {
            if (t.get(i).getType() != CudaLexer.IDENTIFIER) continue;
            String n = t.get(i).getText();
            int next = t.get(i + 1).getType();
            if (next == CudaLexer.LPAREN && calls.add(n) && isGenerator(n)
                    || typePosition(next) && types.add(n) && isGeneratorType(n)) return true;
            // a member call on a generator object: rng.next(), gen.uniform()
            if ((next == CudaLexer.DOT || next == CudaLexer.ARROW)
                    && i + 3 < t.size()
                    && t.get(i + 2).getType() == CudaLexer.IDENTIFIER
                    && t.get(i + 3).getType() == CudaLexer.LPAREN
                    && isGeneratorMember(n, t.get(i + 2).getText())) return true;
        }
        return false;
    }

    /**
     * A token that can follow a type name in a declaration or a template ({@code curandState s}, {@code
     * std::normal_distribution<float>}, {@code T *p}, {@code T &r}): only there is an identifier asked whether it
     * names a generator type (the test costs a look at every identifier otherwise).
     */
    static boolean typePosition(int next) {
        return next == CudaLexer.IDENTIFIER || next == CudaLexer.LT || next == CudaLexer.STAR || next == CudaLexer.AMP;
    }
}
