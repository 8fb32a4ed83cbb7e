package io.ontul.exchange.kms;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code bin/ontul kms rotate}: adds a master key version to the local key directory. Files
 * already written keep their version and stay readable; files written afterwards use the new
 * one, also by a server that is running (it notices the new version on its next file).
 */
public final class KeyRotationCommand
{
    private KeyRotationCommand() {}

    /**
     * Rotates the master key in {@code keyDirectory}, printing the new version to {@code out}
     * and failures to {@code err}. Returns the process exit code: 0 on success, 1 on failure.
     *
     * @param passphrase the value of {@code ONTUL_MASTER_KEY}, if set
     */
    public static int rotate(Path keyDirectory, Optional<String> passphrase, PrintStream out, PrintStream err)
    {
        requireNonNull(keyDirectory, "keyDirectory is null");
        requireNonNull(passphrase, "passphrase is null");
        requireNonNull(out, "out is null");
        requireNonNull(err, "err is null");
        try {
            LocalKeyManagementService service = new LocalKeyManagementService(keyDirectory, passphrase);
            MasterKeyVersion previous = service.currentMasterKey();
            MasterKeyVersion rotated = service.rotateMasterKey();
            out.printf("Rotated master key '%s' in %s: version %d -> %d. New files use version %d; older versions stay readable.%n",
                    rotated.keyId(), service.keyDirectory(), previous.version(), rotated.version(), rotated.version());
            return 0;
        }
        catch (IOException | RuntimeException e) {
            err.println("Cannot rotate the master key in " + keyDirectory + ": " + e.getMessage());
            return 1;
        }
    }
}
