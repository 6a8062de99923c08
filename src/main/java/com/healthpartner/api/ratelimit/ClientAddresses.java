package com.healthpartner.api.ratelimit;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;

/**
 * Who a request without a valid key comes from, for the per-IP policies. By default the
 * TCP peer: a client cannot choose it. Behind proxies an operator lists them in
 * {@code APP_TRUSTED_PROXIES}; then {@code X-Forwarded-For} is read from the right, each
 * address appended by a trusted proxy is skipped, and the first other one is the client.
 * Addresses a client wrote itself (left of that) are never used, so it cannot pose as
 * someone else. IPv6 clients count per /64, the block one client usually holds.
 */
@Component
class ClientAddresses {

	static final String FORWARDED_FOR = "X-Forwarded-For";

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
				byte[] hop = AddressRange.literal(hops.get(i));
				if (hop == null) {
					break;
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
