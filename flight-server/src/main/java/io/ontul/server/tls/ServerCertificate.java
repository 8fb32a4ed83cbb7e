package io.ontul.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * The certificate chain and private key the Flight SQL endpoint serves TLS with, already in
 * the PEM forms gRPC reads (key as unencrypted PKCS#8).
 */
public final class ServerCertificate
{
    private static final int SUBJECT_ALTERNATIVE_DNS_NAME = 2;
    private static final int SUBJECT_ALTERNATIVE_IP_ADDRESS = 7;

    private final Path certificateFile;
    private final List<X509Certificate> chain;
    private final PrivateKey privateKey;
    private final String privateKeyPem;
    private final boolean generated;

    private ServerCertificate(Path certificateFile, List<X509Certificate> chain, PrivateKey privateKey, boolean generated)
    {
        this.certificateFile = requireNonNull(certificateFile, "certificateFile is null");
        this.chain = List.copyOf(requireNonNull(chain, "chain is null"));
        this.privateKey = requireNonNull(privateKey, "privateKey is null");
        this.privateKeyPem = PemFiles.toPem(privateKey);
        this.generated = generated;
        if (this.chain.isEmpty()) {
            throw new IllegalArgumentException("chain is empty");
        }
    }

    /** Reads a PEM certificate chain (server certificate first) and its PEM private key. */
    public static ServerCertificate load(Path certificateFile, Path keyFile, boolean generated)
            throws IOException
    {
        return new ServerCertificate(certificateFile, PemFiles.readCertificates(certificateFile), PemFiles.readPrivateKey(keyFile), generated);
    }

    /** The file clients can trust (for a self-signed certificate) or inspect. */
    public Path certificateFile()
    {
        return certificateFile;
    }

    public X509Certificate certificate()
    {
        return chain.get(0);
    }

    /** True if Ontul generated this certificate (self-signed) rather than reading configured files. */
    public boolean generated()
    {
        return generated;
    }

    public InputStream certificateChain()
    {
        StringBuilder pem = new StringBuilder();
        chain.forEach(certificate -> pem.append(PemFiles.toPem(certificate)));
        return new ByteArrayInputStream(pem.toString().getBytes(US_ASCII));
    }

    public InputStream privateKey()
    {
        return new ByteArrayInputStream(privateKeyPem.getBytes(US_ASCII));
    }

    /** The key and chain as an in-memory PKCS#12 key store (entry {@code ontul}, protected by {@code password}), for servers that read key stores (the HTTP server). */
    public java.security.KeyStore keyStore(char[] password)
    {
        try {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, password);
            store.setKeyEntry("ontul", privateKey, password, chain.toArray(new java.security.cert.Certificate[0]));
            return store;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot put the server certificate into a key store: " + e.getMessage(), e);
        }
    }

    public Instant notAfter()
    {
        return certificate().getNotAfter().toInstant();
    }

    /** SHA-256 of the server certificate's DER encoding, as {@code AB:CD:...}, what browsers and {@code openssl x509 -fingerprint -sha256} show. */
    public String fingerprint()
    {
        return fingerprint(certificate());
    }

    public static String fingerprint(X509Certificate certificate)
    {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot compute a SHA-256 fingerprint: " + e.getMessage(), e);
        }
    }

    /** True if the certificate names {@code host} (DNS name or IP address) among its subject alternative names. */
    public boolean names(String host)
    {
        return names(certificate(), host);
    }

    static boolean names(X509Certificate certificate, String host)
    {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        }
        catch (CertificateParsingException e) {
            return false;
        }
        if (names == null) {
            return false;
        }
        String wanted = HostNames.normalize(host);
        for (List<?> name : names) {
            int type = (Integer) name.get(0);
            if ((type == SUBJECT_ALTERNATIVE_DNS_NAME || type == SUBJECT_ALTERNATIVE_IP_ADDRESS)
                    && HostNames.normalize(String.valueOf(name.get(1))).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString()
    {
        return certificateFile.toAbsolutePath() + " (" + (generated ? "self-signed, generated by Ontul" : "configured")
                + ", subject " + certificate().getSubjectX500Principal().getName()
                + ", valid until " + notAfter() + ", SHA-256 fingerprint " + fingerprint() + ")";
    }
}
