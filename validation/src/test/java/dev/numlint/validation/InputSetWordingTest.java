package dev.numlint.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.numlint.validation.input.Distribution;
import dev.numlint.validation.input.KernelSpec;
import dev.numlint.validation.input.ParamSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 6: a buffer the host code fills with a constant (a tiled matrix multiply filling A and B with 1.0)
 * is one input set among the generated ones, never all of them, and each set is named as what it was.
 */
class InputSetWordingTest {
    static KernelSpec matmul() {
        KernelSpec ks = new KernelSpec();
        for (String n : new String[] {"A", "B", "C"}) {
            ParamSpec p = new ParamSpec();
            p.name = n;
            p.type = "f32";
            p.length = 64;
            p.direction = n.equals("C") ? "out" : "in";
            if (!n.equals("C")) p.hostFill = 1.0;
            ks.params.add(p);
        }
        return ks;
    }

    static float[] floats(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        float[] f = new float[b.length / 4];
        for (int i = 0; i < f.length; i++) f[i] = bb.getFloat(4 * i);
        return f;
    }

    @Test
    void hostFillIsOneNamedSetAmongTheGenerated() {
        KernelSpec ks = matmul();
        List<Distribution> d = InputSets.distributions(Map.of(), ks);
        assertEquals(
                "host code's fill (A = 1.0, B = 1.0; other inputs uniform(-1.0, 1.0))",
                d.get(0).toString());
        assertTrue(d.size() >= 3, "generated sets follow: " + d);
        assertEquals("uniform(-1.0, 1.0)", d.get(1).toString());
        float[] hostA = floats((byte[])
                InputSets.inputs(ks, 64, d.get(0), new SplittableRandom(1)).args.get(0));
        for (float v : hostA) assertEquals(1.0f, v);
        float[] genA = floats((byte[])
                InputSets.inputs(ks, 64, d.get(1), new SplittableRandom(1)).args.get(0));
        long distinct = 0;
        for (int i = 1; i < genA.length; i++) if (genA[i] != genA[0]) distinct++;
        assertTrue(distinct > 0, "the generated set does not repeat the host's constant");
        for (float v : genA) assertTrue(v >= -1 && v <= 1, "uniform(-1, 1) as named: " + v);
    }

    @Test
    void withoutHostFillNoHostSetIsNamed() {
        KernelSpec ks = matmul();
        for (ParamSpec p : ks.params) p.hostFill = null;
        List<Distribution> d = InputSets.distributions(Map.of(), ks);
        assertTrue(d.stream().noneMatch(x -> x.toString().contains("host")), d.toString());
    }
}
