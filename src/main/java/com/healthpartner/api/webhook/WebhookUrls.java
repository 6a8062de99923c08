package com.healthpartner.api.webhook;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Which endpoint URLs may receive webhooks (docs/api.md, Webhooks): {@code https://} (or
 * {@code http://} where allowed), at most 2,048 characters, with a host, without
 * credentials or fragment, whose every address is public unless the host is listed in
 * {@code APP_WEBHOOKS_ALLOWED_HOSTS}. The addresses are checked when an endpoint is saved
 * and again at every attempt, and the attempt connects to an address that was just
 * checked, so a name that resolves elsewhere later (DNS rebinding) reaches nothing
 * private.
 */
final class WebhookUrls {

	static final int MAX_LENGTH = 2048;

	private final boolean allowHttp;

	private final Set<String> allowedHosts;

	WebhookUrls(WebhookProperties properties) {
		this.allowHttp = properties.allowHttp();
		this.allowedHosts = properties.allowedHosts()
			.stream()
			.map((host) -> host.toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	/** The URL parsed, or a {@link Refused} saying what is wrong with its text. */
	URI parse(String url) {
		if (url.length() > MAX_LENGTH) {
			throw new Refused("must be at most " + MAX_LENGTH + " characters");
		}
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (URISyntaxException ex) {
			throw new Refused("must be an absolute https:// URL");
		}
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!scheme.equals("https") && !(this.allowHttp && scheme.equals("http"))) {
			throw new Refused(this.allowHttp ? "must be an https:// or http:// URL" : "must be an https:// URL");
		}
		if (uri.getHost() == null || uri.getHost().isEmpty()) {
			throw new Refused("must name a host");
		}
		if (uri.getRawUserInfo() != null) {
			throw new Refused("must not hold credentials; authenticate messages by their signature");
		}
		if (uri.getRawFragment() != null) {
			throw new Refused("must not have a fragment");
		}
		return uri;
	}

	/**
	 * Resolves the URL's host (off the event loop: the JDK's resolver blocks) and checks
	 * every address it has; the first to connect to, or a {@link Refused}.
	 */
	Mono<Target> resolve(URI uri) {
		return resolve(uri, Schedulers.boundedElastic());
	}

	/** {@link #resolve(URI)} on {@code scheduler}. */
	Mono<Target> resolve(URI uri, Scheduler scheduler) {
		String host = host(uri);
		return Mono.fromCallable(() -> {
			InetAddress[] addresses;
			try {
				addresses = InetAddress.getAllByName(host);
			}
			catch (UnknownHostException ex) {
				throw new Refused("names a host that does not resolve: " + host);
			}
			if (!this.allowedHosts.contains(host.toLowerCase(Locale.ROOT))) {
				for (InetAddress address : addresses) {
					if (!isPublic(address)) {
						throw new Refused("names a host that resolves to a non-public address (" + host + " is "
								+ address.getHostAddress() + ")");
					}
				}
			}
			boolean secure = uri.getScheme().equalsIgnoreCase("https");
			int port = (uri.getPort() != -1) ? uri.getPort() : secure ? 443 : 80;
			// the checked address under the URL's host name: nothing resolves it again,
			// and TLS still checks the certificate against that name
			InetAddress checked = InetAddress.getByAddress(host, addresses[0].getAddress());
			String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) ? "/" : uri.getRawPath();
			if (uri.getRawQuery() != null) {
				path = path + "?" + uri.getRawQuery();
			}
			String hostHeader = uri.getRawAuthority();
			return new Target(new InetSocketAddress(checked, port), secure, hostHeader, path);
		}).subscribeOn(scheduler);
	}

	private static String host(URI uri) {
		String host = uri.getHost();
		return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
	}

	/**
	 * Whether an address is on the public internet: not loopback, private, shared
	 * (carrier-grade NAT), link-local, multicast, unspecified, reserved or for
	 * documentation, in IPv4 or IPv6, nor an IPv6 form of such an IPv4 address.
	 */
	static boolean isPublic(InetAddress address) {
		byte[] b = address.getAddress();
		if (b.length == 4) {
			return isPublicV4(b, 0);
		}
		int first = b[0] & 0xff;
		int second = b[1] & 0xff;
		boolean zeroTo10 = true;
		for (int i = 0; i < 10; i++) {
			zeroTo10 &= b[i] == 0;
		}
		if (zeroTo10 && ((b[10] == 0 && b[11] == 0) || ((b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff))) {
			// ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (mapped)
			return (b[10] != 0) && isPublicV4(b, 12);
		}
		if (first == 0x00 && second == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
			// 64:ff9b::/96, NAT64: the IPv4 address it reaches
			return isPublicV4(b, 12);
		}
		if (first == 0x20 && second == 0x02) {
			// 2002::/16, 6to4
			return isPublicV4(b, 2);
		}
		if ((first & 0xfe) == 0xfc || first == 0xff || (first == 0xfe && (second & 0xc0) == 0x80)
				|| (first == 0xfe && (second & 0xc0) == 0xc0)) {
			// unique local, multicast, link-local, site-local
			return false;
		}
		if (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
			// 2001:db8::/32, documentation
			return false;
		}
		if (first == 0x01 && second == 0x00 && b[2] == 0 && b[3] == 0 && b[4] == 0 && b[5] == 0 && b[6] == 0
				&& b[7] == 0) {
			// 100::/64, discard
			return false;
		}
		return (first & 0xe0) == 0x20;
	}

	private static boolean isPublicV4(byte[] b, int at) {
		int a = b[at] & 0xff;
		int c = b[at + 1] & 0xff;
		int d = b[at + 2] & 0xff;
		return !(a == 0 || a == 10 || a == 127 || a >= 224 || (a == 100 && (c & 0xc0) == 64) || (a == 169 && c == 254)
				|| (a == 172 && (c & 0xf0) == 16) || (a == 192 && c == 168)
				|| (a == 192 && c == 0 && (d == 0 || d == 2)) || (a == 192 && c == 88 && d == 99)
				|| (a == 198 && (c & 0xfe) == 18) || (a == 198 && c == 51 && d == 100)
				|| (a == 203 && c == 0 && d == 113));
	}

	/** Where an attempt connects: a checked address, and the request's host and path. */
	record Target(InetSocketAddress address, boolean secure, String hostHeader, String pathAndQuery) {
	}

	/** A URL that may not receive webhooks, and why. */
	static final class Refused extends RuntimeException {

		Refused(String message) {
			super(message, null, false, false);
		}

	}

}
