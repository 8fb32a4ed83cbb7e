package io.ontul.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemGenerationException;

/** Reads and writes certificates and private keys in PEM, the format of OpenSSL and gRPC. */
public final class PemFiles
{
    private PemFiles() {}

    /** The certificates of {@code file}, server certificate first. */
    static List<X509Certificate> readCertificates(Path file)
            throws IOException
    {
        List<X509Certificate> certificates = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (Reader reader = Files.newBufferedReader(file, US_ASCII); PEMParser parser = new PEMParser(reader)) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        }
        catch (CertificateException e) {
            throw new IOException("Cannot read a certificate of " + file + ": " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IOException(file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return certificates;
    }

    /** The private key of {@code file}: PKCS#8 ({@code BEGIN PRIVATE KEY}), EC or RSA; not encrypted. */
    static PrivateKey readPrivateKey(Path file)
            throws IOException
    {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (Reader reader = Files.newBufferedReader(file, US_ASCII); PEMParser parser = new PEMParser(reader)) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (object instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (object instanceof PKCS8EncryptedPrivateKeyInfo || object instanceof PEMEncryptedKeyPair) {
                    throw new IOException(file + " holds an encrypted private key, which is not supported: "
                            + "decrypt it with  openssl pkcs8 -topk8 -nocrypt -in ENCRYPTED.key -out " + file.getFileName());
                }
            }
        }
        catch (PEMException e) {
            throw new IOException("Cannot read the private key of " + file + ": " + e.getMessage(), e);
        }
        throw new IOException(file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    public static String toPem(X509Certificate certificate)
    {
        return write(certificate);
    }

    /** The key as unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), the only form gRPC's Netty reads. */
    public static String toPem(PrivateKey key)
    {
        try {
            return write(new JcaPKCS8Generator(key, null));
        }
        catch (PemGenerationException e) {
            throw new IllegalArgumentException("Cannot encode a " + key.getAlgorithm() + " key as PKCS#8: " + e.getMessage(), e);
        }
    }

    private static String write(Object object)
    {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}
