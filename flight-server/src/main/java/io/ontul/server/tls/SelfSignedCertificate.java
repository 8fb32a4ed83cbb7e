package io.ontul.server.tls;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.IPAddress;

/** A self-signed server certificate on a new EC P-256 key, for TLS without a certificate authority. */
public record SelfSignedCertificate(X509Certificate certificate, PrivateKey privateKey)
{
    public static final Duration VALIDITY = Duration.ofDays(365);
    // tolerates clients whose clocks run a little behind the server's
    private static final Duration BACKDATING = Duration.ofMinutes(5);

    public SelfSignedCertificate
    {
        requireNonNull(certificate, "certificate is null");
        requireNonNull(privateKey, "privateKey is null");
    }

    /**
     * Generates a certificate valid from {@code now} for {@link #VALIDITY}, naming every entry of
     * {@code hostNames} as a subject alternative name (an IP address or a DNS name).
     */
    public static SelfSignedCertificate generate(List<String> hostNames, Instant now)
    {
        if (hostNames.isEmpty()) {
            throw new IllegalArgumentException("A certificate needs at least one host name");
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();

            X500Name subject = new X500NameBuilder(BCStyle.INSTANCE)
                    .addRDN(BCStyle.O, "Ontul")
                    .addRDN(BCStyle.CN, hostNames.get(0))
                    .build();
            GeneralName[] names = hostNames.stream()
                    .map(name -> IPAddress.isValid(name) ? new GeneralName(GeneralName.iPAddress, name) : new GeneralName(GeneralName.dNSName, name))
                    .toArray(GeneralName[]::new);
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject,
                    new BigInteger(127, new SecureRandom()).add(BigInteger.ONE),
                    Date.from(now.minus(BACKDATING)),
                    Date.from(now.plus(VALIDITY)),
                    subject,
                    keys.getPublic());
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names))
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(keys.getPublic()));
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return new SelfSignedCertificate(certificate, keys.getPrivate());
        }
        catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("Cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }
}
