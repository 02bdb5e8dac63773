/** SpotBugs plugin: numlint's Java rules on bytecode; findbugs.xml and messages.xml generated from the rule catalog. */
package dev.numlint.spotbugs;
