package dev.numlint.spotbugs;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The numlint rule ids a detector reports. The build-time descriptor generator reads it to write the detector's
 * {@code reports} attribute in findbugs.xml and checks it against the catalog's java-bytecode layer.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ReportsRules {
    /** Rule ids, e.g. {@code NL001}. */
    String[] value();

    /** SpotBugs detector speed: fast, moderate or slow. */
    String speed() default "fast";
}
