package com.healthpartner.api.ratelimit;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;

/**
 * Who a request without a valid key comes from, for the per-IP policies. By default the
 * TCP peer: a client cannot choose it. Behind proxies an operator lists them in
 * {@code APP_TRUSTED_PROXIES}; then {@code X-Forwarded-For} is read from the right, each
 * address appended by a trusted proxy is skipped, and the first other one is the client.
 * Addresses a client wrote itself (left of that) are never used, so it cannot pose as
 * someone else. A hop may carry a port ({@code 203.0.113.7:5678},
 * {@code [2001:db8::1]:443}); a hop that is no address at all ({@code unknown}, an
 * obfuscated {@code _id}) is what the trusted proxy knew of its client, so that text is
 * the client's own bucket: never the proxy's address (that would put every client in one
 * bucket), never a hop further left (the client may have written it). IPv6 clients count
 * per /64, the block one client usually holds.
 */
@Component
class ClientAddresses {

	static final String FORWARDED_FOR = "X-Forwarded-For";

	/** Bounds the bucket of a hop that is not an address (what a proxy wrote). */
	static final int MAXIMUM_HOP_LENGTH = 64;

	private final List<AddressRange> trustedProxies;

	ClientAddresses(RateLimitProperties properties) {
		this.trustedProxies = AddressRange.parseList(properties.trustedProxies());
	}

	String of(ServerHttpRequest request) {
		InetSocketAddress remote = request.getRemoteAddress();
		if (remote == null || remote.getAddress() == null) {
			return "unknown";
		}
		byte[] client = AddressRange.ipv4IfMapped(remote.getAddress().getAddress());
		if (trusted(client)) {
			List<String> hops = hops(request);
			for (int i = hops.size() - 1; i >= 0; i--) {
				byte[] hop = AddressRange.literal(withoutPort(hops.get(i).trim()));
				if (hop == null) {
					return unparsable(hops.get(i));
				}
				client = hop;
				if (!trusted(hop)) {
					break;
				}
			}
		}
		return format(client);
	}

	private boolean trusted(byte[] address) {
		for (AddressRange range : this.trustedProxies) {
			if (range.contains(address)) {
				return true;
			}
		}
		return false;
	}

	private static List<String> hops(ServerHttpRequest request) {
		List<String> hops = new ArrayList<>();
		for (String line : request.getHeaders().getOrEmpty(FORWARDED_FOR)) {
			hops.addAll(Arrays.asList(line.split(",")));
		}
		return hops;
	}

	/**
	 * {@code 1.2.3.4:5678} and {@code [::1]:80} without the port; anything else (a bare
	 * IPv6 address has several colons) unchanged.
	 */
	static String withoutPort(String hop) {
		if (hop.startsWith("[")) {
			int close = hop.indexOf(']');
			if (close > 0 && (close == hop.length() - 1 || isPort(hop.substring(close + 1)))) {
				return hop.substring(1, close);
			}
			return hop;
		}
		int colon = hop.indexOf(':');
		if (colon > 0 && colon == hop.lastIndexOf(':') && isPort(hop.substring(colon))) {
			return hop.substring(0, colon);
		}
		return hop;
	}

	private static boolean isPort(String text) {
		return text.length() > 1 && text.length() <= 6 && text.charAt(0) == ':'
				&& text.chars().skip(1).allMatch((c) -> c >= '0' && c <= '9');
	}

	private static String unparsable(String hop) {
		String text = hop.trim().toLowerCase(Locale.ROOT);
		return "hop:" + ((text.length() > MAXIMUM_HOP_LENGTH) ? text.substring(0, MAXIMUM_HOP_LENGTH) : text);
	}

	private static String format(byte[] address) {
		byte[] key = address;
		String suffix = "";
		if (address.length == 16) {
			key = Arrays.copyOf(address, 16);
			Arrays.fill(key, 8, 16, (byte) 0);
			suffix = "/64";
		}
		try {
			return InetAddress.getByAddress(key).getHostAddress() + suffix;
		}
		catch (UnknownHostException ex) {
			// cannot happen for 4 or 16 bytes
			throw new IllegalStateException(ex);
		}
	}

}
