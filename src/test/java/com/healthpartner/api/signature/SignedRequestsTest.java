package com.healthpartner.api.signature;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.Partners.Credentials;
import com.healthpartner.api.support.Signatures;
import com.healthpartner.api.support.TestBeans;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signed requests (docs/api.md) as a partner experiences them: a correct signature opens
 * the request, anything else (wrong secret, stale or future timestamp, altered body or
 * query, a replayed write, a missing signature where it is required) is 401
 * {@code invalid_signature} and stores nothing.
 */
class SignedRequestsTest extends IntegrationTest {

	@Autowired
	private DatabaseClient db;

	@Test
	void aSignedReadAndASignedWriteAreAcceptedAndTheBodyStillReachesTheHandler() {
		Credentials partner = this.partners.onboard();
		long t = now();
		get(partner, "/api/v1/auth/me", Signatures.sign(partner.apiSecret(), t, "GET", "/api/v1/auth/me", ""))
			.expectStatus()
			.isOk();
		String marker = UUID.randomUUID().toString();
		String body = TestBeans.writeBody(marker);
		post(partner, body, Signatures.sign(partner.apiSecret(), t, "POST", TestBeans.WRITE_PATH, body)).expectStatus()
			.isCreated()
			.expectBody()
			.jsonPath("$.user_id")
			.isEqualTo(marker);
		assertStored(marker, 1);
	}

	@Test
	void theQueryIsSignedAsSentAndAReadMayBeRepeatedWithinTheWindow() {
		Credentials partner = this.partners.onboard();
		String target = "/api/v1/nowhere?user_id=a%40b&x=1%2F2";
		String signature = Signatures.sign(partner.apiSecret(), now(), "GET", target, "");
		get(partner, target, signature).expectStatus().isNotFound();
		get(partner, target, signature).expectStatus().isNotFound();
		get(partner, "/api/v1/nowhere?user_id=a%40c&x=1%2F2", signature).expectStatus()
			.isUnauthorized()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("invalid_signature");
	}

	@Test
	void aSignatureWithAnotherSecretIsRefused() {
		Credentials partner = this.partners.onboard();
		Credentials other = this.partners.onboard();
		String marker = UUID.randomUUID().toString();
		String body = TestBeans.writeBody(marker);
		refused(post(partner, body, Signatures.sign(other.apiSecret(), now(), "POST", TestBeans.WRITE_PATH, body)));
		// the secret of the key sent, not of another key of the same partner
		Credentials second = this.partners.issueKey(partner.partnerId(), Map.of());
		refused(post(partner, body, Signatures.sign(second.apiSecret(), now(), "POST", TestBeans.WRITE_PATH, body)));
		assertStored(marker, 0);
	}

	@Test
	void aTimestampMoreThanFiveMinutesAwayIsRefused() {
		Credentials partner = this.partners.onboard();
		long t = now();
		// 10 s beyond the window: t is whole seconds and the server's clock runs on while
		// the requests go out, so t + 301 would be within 300 s once a second has passed
		for (long stale : new long[] { t - 310, t + 310 }) {
			refused(get(partner, "/api/v1/auth/me",
					Signatures.sign(partner.apiSecret(), stale, "GET", "/api/v1/auth/me", "")));
		}
		get(partner, "/api/v1/auth/me", Signatures.sign(partner.apiSecret(), t - 290, "GET", "/api/v1/auth/me", ""))
			.expectStatus()
			.isOk();
		// the server's clock decides, not the wall clock of the client
		String signature = Signatures.sign(partner.apiSecret(), t, "GET", "/api/v1/auth/me", "");
		this.clock.advance(Duration.ofSeconds(310));
		refused(get(partner, "/api/v1/auth/me", signature));
	}

	@Test
	void aReplayedWriteIsRefusedAndStoredOnce() {
		Credentials partner = this.partners.onboard();
		String marker = UUID.randomUUID().toString();
		String body = TestBeans.writeBody(marker);
		String signature = Signatures.sign(partner.apiSecret(), now(), "POST", TestBeans.WRITE_PATH, body);
		post(partner, body, signature).expectStatus().isCreated();
		refused(post(partner, body, signature));
		// signed again with a new t, the retry is a new request
		post(partner, body, Signatures.sign(partner.apiSecret(), now() + 1, "POST", TestBeans.WRITE_PATH, body))
			.expectStatus()
			.isCreated();
		assertStored(marker, 2);
	}

	@Test
	void anAlteredBodyIsRefusedAndNotStored() {
		Credentials partner = this.partners.onboard();
		String signed = TestBeans.writeBody(UUID.randomUUID().toString());
		String sent = UUID.randomUUID().toString();
		refused(post(partner, TestBeans.writeBody(sent),
				Signatures.sign(partner.apiSecret(), now(), "POST", TestBeans.WRITE_PATH, signed)));
		assertStored(sent, 0);
	}

	@Test
	void aMalformedSignatureIsRefused() {
		Credentials partner = this.partners.onboard();
		for (String header : new String[] { "v1=abc", "t=" + now(), "t=x,v1=" + "0".repeat(64),
				"t=" + now() + ",v1=" + "0".repeat(63), "garbage" }) {
			refused(get(partner, "/api/v1/auth/me", header));
		}
	}

	@Test
	void aPartnerThatMustSignIsRefusedUnsignedRequests() {
		Credentials partner = this.partners.onboard();
		this.partners.patch(partner.partnerId(), Map.of("signing_required", true));
		Expect
			.problem(this.client.get().uri("/api/v1/auth/me").header("x-api-key", partner.apiKey()).exchange(),
					HttpStatus.UNAUTHORIZED, "invalid_signature")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains("must sign"));
		get(partner, "/api/v1/auth/me", Signatures.sign(partner.apiSecret(), now(), "GET", "/api/v1/auth/me", ""))
			.expectStatus()
			.isOk();
	}

	@Test
	void theSignatureIsCheckedAfterTheRateLimitAndBeforeTheScope() {
		Credentials partner = this.partners.onboard("default", "metrics:read");
		String wrong = Signatures.sign(partner.apiSecret(), now(), "GET", "/elsewhere", "");
		refused(get(partner, TestBeans.SCOPED_PATH, wrong)).expectHeader().valueEquals("X-RateLimit-Remaining", "59");
		get(partner, TestBeans.SCOPED_PATH,
				Signatures.sign(partner.apiSecret(), now(), "GET", TestBeans.SCOPED_PATH, ""))
			.expectStatus()
			.isForbidden();
	}

	@Test
	void aSignedBodyOverTheLimitIsTooLarge() {
		Credentials partner = this.partners.onboard();
		String body = TestBeans.writeBody("x".repeat(70_000));
		Expect.problem(
				post(partner, body, Signatures.sign(partner.apiSecret(), now(), "POST", TestBeans.WRITE_PATH, body)),
				HttpStatus.CONTENT_TOO_LARGE, "payload_too_large");
	}

	private long now() {
		return this.clock.instant().getEpochSecond();
	}

	private ResponseSpec get(Credentials partner, String target, String signature) {
		return this.client.get()
			// as a URI, so that the query goes out exactly as signed (no re-encoding)
			.uri(URI.create("http://localhost:" + this.port + target))
			.header("x-api-key", partner.apiKey())
			.header(Signatures.HEADER, signature)
			.exchange();
	}

	private ResponseSpec post(Credentials partner, String body, String signature) {
		return this.client.post()
			.uri(TestBeans.WRITE_PATH)
			.header("x-api-key", partner.apiKey())
			.header(Signatures.HEADER, signature)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

	private static ResponseSpec refused(ResponseSpec response) {
		response.expectStatus().isUnauthorized().expectBody().jsonPath("$.code").isEqualTo("invalid_signature");
		return response;
	}

	private void assertStored(String marker, long count) {
		TestBeans.writes(this.db, marker).as(StepVerifier::create).expectNext(count).verifyComplete();
	}

}
