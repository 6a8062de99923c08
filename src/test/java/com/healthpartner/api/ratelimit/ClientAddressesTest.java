package com.healthpartner.api.ratelimit;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Which address the per-IP policies count: the TCP peer, unless it is a trusted proxy;
 * then the first address from the right of {@code X-Forwarded-For} that is not a trusted
 * proxy.
 */
class ClientAddressesTest {

	@Test
	void withoutTrustedProxiesThePeerCountsWhateverTheHeaderSays() {
		ClientAddresses addresses = addresses("");
		assertThat(addresses.of(request("192.0.2.1", "203.0.113.7"))).isEqualTo("192.0.2.1");
	}

	@Test
	void aPeerThatIsNotTrustedCannotNameAnotherClient() {
		ClientAddresses addresses = addresses("10.0.0.0/8");
		assertThat(addresses.of(request("192.0.2.1", "203.0.113.7"))).isEqualTo("192.0.2.1");
	}

	@Test
	void behindTrustedProxiesTheRightmostUntrustedAddressCounts() {
		ClientAddresses addresses = addresses("10.0.0.0/8, 192.168.1.5");
		assertThat(addresses.of(request("10.1.2.3", "203.0.113.7"))).isEqualTo("203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "198.51.100.1, 203.0.113.7, 192.168.1.5")))
			.isEqualTo("203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", null))).isEqualTo("10.1.2.3");
		assertThat(addresses.of(request("10.1.2.3", "not-an-address, 203.0.113.9"))).isEqualTo("203.0.113.9");
	}

	@Test
	void aHopWithAPortCountsAsItsAddress() {
		ClientAddresses addresses = addresses("10.0.0.0/8");
		assertThat(addresses.of(request("10.1.2.3", "203.0.113.7:5678"))).isEqualTo("203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "203.0.113.7, 10.0.0.9:443"))).isEqualTo("203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "[2001:db8:1:2::7]:80")))
			.isEqualTo(addresses.of(request("10.1.2.3", "[2001:db8:1:2::8]")))
			.isEqualTo(addresses.of(request("10.1.2.3", "2001:db8:1:2::9")))
			.isEqualTo("2001:db8:1:2:0:0:0:0/64");
		assertThat(addresses.of(request("10.1.2.3", "[::ffff:203.0.113.7]:80"))).isEqualTo("203.0.113.7");
	}

	@Test
	void aHopThatIsNoAddressIsABucketOfItsOwnNeverTheProxyNorAnAddressFurtherLeft() {
		ClientAddresses addresses = addresses("10.0.0.0/8");
		String unknown = addresses.of(request("10.1.2.3", "unknown"));
		assertThat(unknown).isEqualTo(addresses.of(request("10.1.2.3", "198.51.100.1, Unknown, 10.0.0.9")))
			.isNotEqualTo("10.1.2.3")
			.isNotEqualTo("10.0.0.9")
			.isNotEqualTo("198.51.100.1");
		// other clients behind the same proxy keep their own buckets
		assertThat(addresses.of(request("10.1.2.3", "203.0.113.7"))).isEqualTo("203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "_hidden"))).isNotEqualTo(unknown)
			.isNotIn("10.1.2.3", "203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "203.0.113.7:http"))).isNotIn("10.1.2.3", "203.0.113.7");
		assertThat(addresses.of(request("10.1.2.3", "x".repeat(10_000))))
			.hasSizeLessThanOrEqualTo(ClientAddresses.MAXIMUM_HOP_LENGTH + 10);
	}

	@Test
	void ipv6ClientsCountPerSlash64() {
		ClientAddresses addresses = addresses("");
		assertThat(addresses.of(request("2001:db8:1:2:aaaa::1", null)))
			.isEqualTo(addresses.of(request("2001:db8:1:2:bbbb::2", null)))
			.isEqualTo("2001:db8:1:2:0:0:0:0/64");
	}

	@Test
	void aWrongProxyListStopsTheStartNamingTheVariable() {
		assertThatIllegalArgumentException().isThrownBy(() -> addresses("10.0.0.0/33"))
			.withMessageContaining("APP_TRUSTED_PROXIES");
		assertThatIllegalArgumentException().isThrownBy(() -> addresses("proxy.internal"))
			.withMessageContaining("APP_TRUSTED_PROXIES");
	}

	private static ClientAddresses addresses(String trusted) {
		return new ClientAddresses(new RateLimitProperties("default=60", 60, 10, "local", trusted));
	}

	private static MockServerHttpRequest request(String peer, String forwardedFor) {
		MockServerHttpRequest.BaseBuilder<?> builder = MockServerHttpRequest.get("/api/v1/auth/me")
			.remoteAddress(new InetSocketAddress(peer, 40000));
		if (forwardedFor != null) {
			builder.header(ClientAddresses.FORWARDED_FOR, forwardedFor);
		}
		return builder.build();
	}

}
