package org.quire.launcher.run;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Checks, before N JVMs are spawned, that the workers' class path has the main class and that
 * it has {@code public static void main(String[])}: a typo should cost one line of error, not N
 * stack traces.
 */
final class MainClassCheck {

    private MainClassCheck() {
    }

    /**
     * Returns null when {@code mainClass} can run on {@code classPath}, else why not, naming
     * {@code userClassPath} (what the user gave with -cp) rather than the whole worker class path.
     */
    static String problemWith(String mainClass, String classPath, String userClassPath) {
        try (URLClassLoader loader = new URLClassLoader(urls(classPath), ClassLoader.getPlatformClassLoader())) {
            Class<?> type = Class.forName(mainClass, false, loader);
            Method main = type.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
                return "class " + mainClass + " has no 'public static void main(String[])'";
            }
            return null;
        } catch (ClassNotFoundException e) {
            return "main class '" + mainClass + "' not found in Quire or on the class path '" + userClassPath + "'";
        } catch (NoSuchMethodException e) {
            return "class " + mainClass + " has no 'public static void main(String[])'";
        } catch (LinkageError e) {
            return "main class '" + mainClass + "' cannot be loaded: " + e;
        } catch (Exception e) {
            return "cannot read the class path '" + userClassPath + "': " + e.getMessage();
        }
    }

    /** Class path entries as URLs, with {@code dir/*} expanded to the jars in dir as {@code java} does. */
    private static URL[] urls(String classPath) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.endsWith("*")) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1));
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> jars = Files.list(dir)) {
                        for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                            urls.add(toUrl(jar));
                        }
                    }
                }
            } else {
                urls.add(toUrl(Path.of(entry)));
            }
        }
        return urls.toArray(new URL[0]);
    }

    private static URL toUrl(Path path) throws MalformedURLException {
        return path.toAbsolutePath().toUri().toURL();
    }
}
