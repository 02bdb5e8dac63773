import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

public class Crash_b060fa248a9ac2696d1cb56bb6fe67733ae02ff2 {
    static final String base64Bytes = String.join("", "LnZlcnNpb24gNy4wCi50YXJnZXQgc21fNzAKLmFkZHJlc3Nfc2l6ZSA2NAoudmlzaWJsZSAuZW50cnkgYmlnKC5wYXJhbSAudTY0IGJpZ19wYXJhbV8wKQp7Ci5yZWcgLmI2NCAlcmQ8Mz47Ci5yZWcgLmYzMiAlZjwyPjsKLnNoYXJlZCAuYWxpZ24gNCAuYjggc1syMDAwMDAwMDAwXTsKLmxvY2FsIC5hbGlnbiA0IC5iOCBsWzIwMDAwMDAwMDBdOwpsZC5wYXJhbS51NjQgJXJkMSwgW2JpZ19wYXJhbV8wXTsKY3Z0YS50by5nbG9iYWwudTY0ICVyZDIsICVyZDE7CmxkLnNoYXJlZC5mMzIgJWYxLCBbc107CnN0Lmdsb2JhbC5mMzIgWyVyZDJdLCAlZjE7CnJldDsKfQo=");

    public static void main(String[] args) throws Throwable {
        Crash_b060fa248a9ac2696d1cb56bb6fe67733ae02ff2.class.getClassLoader().setDefaultAssertionStatus(true);
        try {
            Method fuzzerInitialize = dev.numlint.fuzz.Targets$Validation.class.getMethod("fuzzerInitialize");
            fuzzerInitialize.invoke(null);
        } catch (NoSuchMethodException ignored) {
            try {
                Method fuzzerInitialize = dev.numlint.fuzz.Targets$Validation.class.getMethod("fuzzerInitialize", String[].class);
                fuzzerInitialize.invoke(null, (Object) args);
            } catch (NoSuchMethodException ignored1) {
            } catch (IllegalAccessException | InvocationTargetException e) {
                e.printStackTrace();
                System.exit(1);
            }
        } catch (IllegalAccessException | InvocationTargetException e) {
            e.printStackTrace();
            System.exit(1);
        }
        byte[] input = java.util.Base64.getDecoder().decode(base64Bytes);
        dev.numlint.fuzz.Targets$Validation.fuzzerTestOneInput(input);
    }
}