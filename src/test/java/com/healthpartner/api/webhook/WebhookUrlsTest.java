package com.healthpartner.api.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which addresses may receive webhooks: the classifier alone, on addresses built from
 * their bytes (no URL, no name resolved, nothing sent anywhere).
 */
class WebhookUrlsTest {

	@Test
	void privateSharedLinkLocalReservedAndDocumentationAddressesAreNotPublic() throws UnknownHostException {
		int[][] refused = { { 0, 0, 0, 0 }, { 10, 1, 2, 3 }, { 100, 64, 0, 1 }, { 127, 0, 0, 1 },
				{ 169, 254, 169, 254 }, { 172, 16, 0, 1 }, { 172, 31, 255, 255 }, { 192, 0, 0, 8 }, { 192, 0, 2, 1 },
				{ 192, 168, 1, 1 }, { 198, 18, 0, 1 }, { 198, 51, 100, 7 }, { 203, 0, 113, 9 }, { 224, 0, 0, 1 },
				{ 240, 0, 0, 1 }, { 255, 255, 255, 255 } };
		for (int[] address : refused) {
			assertThat(WebhookUrls.isPublic(v4(address))).as(java.util.Arrays.toString(address)).isFalse();
		}
		int[][] allowed = { { 8, 8, 8, 8 }, { 100, 128, 0, 1 }, { 172, 32, 0, 1 }, { 193, 0, 2, 1 } };
		for (int[] address : allowed) {
			assertThat(WebhookUrls.isPublic(v4(address))).as(java.util.Arrays.toString(address)).isTrue();
		}
	}

	@Test
	void ipv6LoopbackUniqueLocalLinkLocalAndFormsOfPrivateIpv4AreNotPublic() throws UnknownHostException {
		assertThat(WebhookUrls.isPublic(v6(0, 0, 0, 0, 0, 0, 0, 1))).as("::1").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0, 0, 0, 0, 0, 0, 0, 0))).as("::").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0xfd00, 0, 0, 0, 0, 0, 0, 1))).as("unique local").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0xfe80, 0, 0, 0, 0, 0, 0, 1))).as("link-local").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0xff02, 0, 0, 0, 0, 0, 0, 1))).as("multicast").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0x2001, 0x0db8, 0, 0, 0, 0, 0, 1))).as("documentation").isFalse();
		// 10.0.0.1 inside NAT64 and 6to4
		assertThat(WebhookUrls.isPublic(v6(0x0064, 0xff9b, 0, 0, 0, 0, 0x0a00, 0x0001))).as("NAT64").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0x2002, 0x0a00, 0x0001, 0, 0, 0, 0, 1))).as("6to4").isFalse();
		assertThat(WebhookUrls.isPublic(v6(0x2a00, 0x1450, 0, 0, 0, 0, 0, 1))).as("global unicast").isTrue();
		assertThat(WebhookUrls.isPublic(v6(0x0064, 0xff9b, 0, 0, 0, 0, 0x0808, 0x0808))).as("NAT64 of public").isTrue();
	}

	private static InetAddress v4(int[] parts) throws UnknownHostException {
		byte[] bytes = new byte[4];
		for (int i = 0; i < 4; i++) {
			bytes[i] = (byte) parts[i];
		}
		return InetAddress.getByAddress(bytes);
	}

	private static InetAddress v6(int... groups) throws UnknownHostException {
		byte[] bytes = new byte[16];
		for (int i = 0; i < 8; i++) {
			bytes[2 * i] = (byte) (groups[i] >> 8);
			bytes[2 * i + 1] = (byte) groups[i];
		}
		return InetAddress.getByAddress(bytes);
	}

}
