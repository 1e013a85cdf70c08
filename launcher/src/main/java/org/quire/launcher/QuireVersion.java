package org.quire.launcher;

import picocli.CommandLine;

/** The version printed by {@code quire --version}: the launcher jar's implementation version. */
public final class QuireVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = QuireVersion.class.getPackage().getImplementationVersion();
        return new String[] {"quire " + (version == null ? "(development build)" : version),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
