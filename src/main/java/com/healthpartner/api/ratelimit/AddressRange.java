package com.healthpartner.api.ratelimit;

import java.util.ArrayList;
import java.util.List;

import io.netty.util.NetUtil;

/**
 * An IP address or CIDR range ({@code 10.0.0.0/8}, {@code 2001:db8::/32}). Only literals
 * are parsed, never host names, so nothing here waits on DNS.
 */
final class AddressRange {

	private final byte[] network;

	private final int prefix;

	private AddressRange(byte[] network, int prefix) {
		this.network = network;
		this.prefix = prefix;
	}

	/** Comma-separated ranges; empty for a blank value. */
	static List<AddressRange> parseList(String ranges) {
		List<AddressRange> parsed = new ArrayList<>();
		if (ranges == null || ranges.isBlank()) {
			return parsed;
		}
		for (String range : ranges.split(",")) {
			parsed.add(parse(range.trim()));
		}
		return parsed;
	}

	static AddressRange parse(String range) {
		int slash = range.indexOf('/');
		byte[] network = literal((slash < 0) ? range : range.substring(0, slash));
		if (network == null) {
			throw new IllegalArgumentException("'" + range + "' is not an IP address or CIDR range");
		}
		int prefix = network.length * 8;
		if (slash >= 0) {
			try {
				prefix = Integer.parseInt(range.substring(slash + 1));
			}
			catch (NumberFormatException ex) {
				prefix = -1;
			}
			if (prefix < 0 || prefix > network.length * 8) {
				throw new IllegalArgumentException("'" + range + "' has no valid prefix length");
			}
		}
		return new AddressRange(network, prefix);
	}

	/**
	 * The bytes of an IP literal (IPv4-mapped IPv6 addresses as IPv4), or null when it is
	 * not one.
	 */
	static byte[] literal(String text) {
		String value = text.trim();
		if (value.startsWith("[") && value.endsWith("]")) {
			value = value.substring(1, value.length() - 1);
		}
		byte[] bytes = NetUtil.createByteArrayFromIpAddressString(value);
		return (bytes != null) ? ipv4IfMapped(bytes) : null;
	}

	static byte[] ipv4IfMapped(byte[] address) {
		if (address.length != 16) {
			return address;
		}
		for (int i = 0; i < 10; i++) {
			if (address[i] != 0) {
				return address;
			}
		}
		if (address[10] != (byte) 0xff || address[11] != (byte) 0xff) {
			return address;
		}
		return new byte[] { address[12], address[13], address[14], address[15] };
	}

	boolean contains(byte[] address) {
		if (address.length != this.network.length) {
			return false;
		}
		int full = this.prefix / 8;
		for (int i = 0; i < full; i++) {
			if (address[i] != this.network[i]) {
				return false;
			}
		}
		int rest = this.prefix % 8;
		if (rest == 0) {
			return true;
		}
		int mask = (0xff << (8 - rest)) & 0xff;
		return (address[full] & mask) == (this.network[full] & mask);
	}

}
