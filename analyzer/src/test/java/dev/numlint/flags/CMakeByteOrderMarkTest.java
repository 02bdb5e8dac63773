package dev.numlint.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.numlint.model.Finding;
import dev.numlint.scan.Analyzers;
import dev.numlint.scan.ScanOptions;
import dev.numlint.scan.ScanResult;
import dev.numlint.scan.Scanner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CMakeLists.txt that opens with a byte-order mark, which CMake skips (session 50 round L: a parse error). */
class CMakeByteOrderMarkTest {
    @Test
    void aByteOrderMarkOpeningTheFileIsNoCharacterOfIt(@TempDir Path dir) throws Exception {
        Files.write(
                dir.resolve("CMakeLists.txt"),
                ("\uFEFFcmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
                                + "add_compile_options(-ffast-math)\nadd_library(core STATIC core.cpp)\n")
                        .getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve("core.cpp"), "int one() { return 1; }\n");
        ScanResult r = Scanner.scan(ScanOptions.builder(dir)
                .analyzers(Analyzers.load())
                .cacheDir(dir.resolve("cache"))
                .ptx(dev.numlint.spi.PtxMode.OFF, null)
                .build());
        assertThat(r.notifications()).noneMatch(n -> n.id().equals("parse-error"));
        assertThat(r.findings())
                .filteredOn(f -> f.location().file().equals("CMakeLists.txt"))
                .extracting(Finding::ruleId)
                .isNotEmpty();
    }
}
