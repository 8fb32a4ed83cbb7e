package io.ontul.server.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.bouncycastle.util.IPAddress;

/** The names a generated certificate covers, and comparing host names with addresses. */
final class HostNames
{
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1");

    private HostNames() {}

    /**
     * The subject alternative names for a server listening on {@code host}: localhost and
     * 127.0.0.1, plus {@code host} itself, or for a wildcard address (0.0.0.0, ::) this machine's
     * name, the name remote clients most likely use.
     */
    static List<String> forListenAddress(String host)
    {
        List<String> names = new ArrayList<>(LOOPBACK);
        String extra = isWildcard(host) ? localHostName() : strip(host);
        if (extra != null && names.stream().noneMatch(name -> normalize(name).equals(normalize(extra)))) {
            names.add(extra);
        }
        return names;
    }

    static boolean isWildcard(String host)
    {
        String address = strip(host);
        if (address.isEmpty()) {
            return true;
        }
        if (!IPAddress.isValid(address)) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isAnyLocalAddress();
        }
        catch (UnknownHostException e) {
            return false;
        }
    }

    /** IP addresses in one canonical form, DNS names in lower case. */
    static String normalize(String host)
    {
        String name = strip(host);
        if (IPAddress.isValid(name)) {
            try {
                // an address literal: no name service lookup happens
                return InetAddress.getByName(name).getHostAddress();
            }
            catch (UnknownHostException e) {
                return name;
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    private static String strip(String host)
    {
        String name = host.trim();
        if (name.startsWith("[") && name.endsWith("]")) {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }

    private static String localHostName()
    {
        try {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (UnknownHostException e) {
            return null;
        }
    }
}
