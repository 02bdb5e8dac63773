package dev.numlint.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A header's class template, instantiated by the objects of the unit that includes it ({@code Tensor<float> image;}):
 * the header, read from that unit's parse, takes those specializations as its members' instantiations (session 47:
 * the unit's objects were not looked at, so the header's float-to-byte conversions were notes, "instantiations not in
 * view").
 */
class ClassTemplateObjectsTest {
    @Test
    void theIncludersObjectsInstantiateTheHeadersClassTemplate(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(
                src.resolve("tensor.h"),
                """
                #pragma once
                template <class T>
                struct Tensor {
                    T *data;
                    unsigned char byte(int x) const { return (unsigned char)data[x]; }
                };
                template <class U>
                struct Counts {
                    U *data;
                    unsigned char byte(int x) const { return (unsigned char)data[x]; }
                    unsigned char peak(int x) const { return (unsigned char)operator()(x, 0); }
                    U &operator()(int x, int y) const { return data[x + y]; }
                    U operator()(float x) const { return data[0]; }
                    void weights(Counts<float> &w) const;
                };
                // a member defined outside its class: the specialization its body names instantiates nothing
                template <class U>
                void Counts<U>::weights(Counts<float> &w) const { w.data[0] = w.byte(0); }
                """);
        Files.writeString(
                src.resolve("main.cpp"),
                """
                #include "tensor.h"
                int main() {
                    Tensor<float> image{nullptr};
                    Counts<int> *counts = new Counts<int>{nullptr};
                    return image.byte(0) + counts->byte(0);
                }
                """);
        Files.writeString(src.resolve("compile_commands.json"), CompileDatabases.of(src, "-std=c++17 -O2", "main.cpp"));
        ScanResult r = Scanner.scan(ScanOptions.builder(src)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve("cache"))
                .build());
        List<String> hits = r.findings().stream()
                .filter(f -> !f.suppressed() && f.ruleId().equals("NL001"))
                .map(f -> f.location().file() + ":" + f.location().startLine() + " " + f.level())
                .toList();
        // Tensor<float>: an error; Counts<int> (the only Counts the program makes): no floating value, also through
        // the overloaded operator() that peak() calls
        assertThat(hits).containsExactly("tensor.h:5 ERROR");
    }
}
