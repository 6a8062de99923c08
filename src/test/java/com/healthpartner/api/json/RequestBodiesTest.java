package com.healthpartner.api.json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies are UTF-8 JSON as sent, and every number in them is stored or refused naming its
 * path: never a {@code 500}, never a library's words in {@code detail}.
 */
class RequestBodiesTest extends PartnerTest {

	@ParameterizedTest
	@ValueSource(strings = { "0e1073741823", "0E+2147483647", "0e2147483648", "1e-2147483648", "0e-2147483648" })
	void anAssessmentNumberWithAnExponentOutOfRangeIsRefusedNamingItsPath(String number) {
		Expect.problem(
				this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(),
						"{\"user_id\":\"" + this.user + "\",\"responses\":{\"x\":" + number + "}}"),
				HttpStatus.BAD_REQUEST, "validation_failed")
			.jsonPath("$.errors[0].field")
			.isEqualTo("responses.x");
		assertThat(stored("assessments")).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "0E+2147483647", "0e1001", "0e2147483648", "1e-2147483648" })
	void aKnownMetricWithAnExponentOutOfRangeIsRefusedNamingItsPath(String number) {
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\":\"" + this.user + "\",\"metrics\":{\"body_fat\":" + number + "}}")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("metrics.body_fat");
		assertThat(stored("metric_records")).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "C0AE", "E080AF", "EDA080", "E282", "FF", "80", "F4908080" })
	void invalidUtf8IsMalformedJson(String hex) {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.writeBytes(("{\"user_id\":\"" + this.user).getBytes(StandardCharsets.UTF_8));
		for (int i = 0; i < hex.length(); i += 2) {
			body.write(Integer.parseInt(hex.substring(i, i + 2), 16));
		}
		body.writeBytes("\",\"metrics\":{\"weight\":70}}".getBytes(StandardCharsets.UTF_8));
		Expect.problem(this.client.post()
			.uri(HealthApi.METRICS)
			.header("x-api-key", this.partner.apiKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body.toByteArray())
			.exchange(), HttpStatus.BAD_REQUEST, "malformed_json");
		assertThat(stored("metric_records")).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "gzip", "deflate", "br" })
	void aBodyWithAContentEncodingIsUnsupported(String encoding) {
		Expect.problem(this.api.post(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\":\"" + this.user + "\",\"metrics\":{\"weight\":70}}", "Content-Encoding", encoding),
				HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
		assertThat(stored("metric_records")).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "utf-16", "iso-8859-1", "utf-32" })
	void aJsonBodyInAnotherCharsetIsUnsupported(String charset) {
		this.client.post()
			.uri(HealthApi.METRICS)
			.header("x-api-key", this.partner.apiKey())
			.header("Content-Type", "application/json; charset=" + charset)
			.bodyValue(("{\"user_id\":\"" + this.user + "\",\"metrics\":{\"weight\":70}}")
				.getBytes(StandardCharsets.UTF_8))
			.exchange()
			.expectStatus()
			.isEqualTo(415);
		assertThat(stored("metric_records")).isZero();
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "{\"a\":", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
					"{\"a\":1,\"a\":2}", "{\"a\":01}" })
	void detailIsInTheServicesOwnWords(String body) {
		Expect
			.problem(this.api.post(HealthApi.ASSESSMENTS, this.partner.apiKey(), body), HttpStatus.BAD_REQUEST,
					"malformed_json")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).doesNotContainIgnoringCase("jackson")
				.doesNotContain("()")
				.doesNotContain("Exception")
				.doesNotContain("StreamReadConstraints")
				.doesNotContain("Unexpected"));
	}

	private long stored(String table) {
		return this.db.sql("select count(*) from " + table + " where user_id = :user")
			.bind("user", this.user)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block();
	}

}
