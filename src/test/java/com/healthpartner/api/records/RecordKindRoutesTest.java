package com.healthpartner.api.records;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.support.Kinds;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The routes of each record kind through the whole service: the scope each needs, ids
 * that name no record, and other methods.
 */
class RecordKindRoutesTest extends PartnerTest {

	private static final String KINDS = "com.healthpartner.api.support.Kinds#all";

	@ParameterizedTest
	@MethodSource(KINDS)
	void eachRouteNeedsItsScope(RecordKind kind) {
		Credentials cannotWrite = this.partners.onboard("default", scopesBut(kind.write()));
		Expect
			.problem(this.api.post(kind.path(), cannotWrite.apiKey(), Kinds.body(kind, "u")), HttpStatus.FORBIDDEN,
					"insufficient_scope")
			.jsonPath("$.detail")
			.value((String detail) -> assertThat(detail).contains(kind.write().value()));
		this.api.page(cannotWrite.apiKey(), kind.path() + "?user_id=u");

		Credentials writeOnly = this.partners.onboard("default", kind.write().value());
		Map<String, Object> created = this.api.create(kind.path(), writeOnly.apiKey(), Kinds.body(kind, "u"));
		for (String uri : List.of(kind.path() + "?user_id=u", kind.path() + "/" + created.get("id"))) {
			this.api.get(writeOnly.apiKey(), uri)
				.expectStatus()
				.isForbidden()
				.expectBody()
				.jsonPath("$.detail")
				.value((String detail) -> assertThat(detail).contains(kind.read().value()));
		}
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void unknownAndMalformedIdsAreNotFound(RecordKind kind) {
		for (String id : List.of(UUID.randomUUID().toString(), "nope", "not-a-uuid", "1-1-1-1-1", "'; drop table x")) {
			this.api.get(this.partner.apiKey(), kind.path() + "/{id}", id)
				.expectStatus()
				.isNotFound()
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.jsonPath("$.code")
				.isEqualTo("not_found");
		}
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void otherMethodsAreNotAllowed(RecordKind kind) {
		Expect.notAllowed(this.client.delete().uri(kind.path()).header("x-api-key", this.partner.apiKey()).exchange(),
				"GET, POST");
		Expect.notAllowed(this.client.patch().uri(kind.path()).header("x-api-key", this.partner.apiKey()).exchange(),
				"GET, POST");
		Expect.notAllowed(this.client.put()
			.uri(kind.path() + "/" + UUID.randomUUID())
			.header("x-api-key", this.partner.apiKey())
			.exchange(), "DELETE, GET");
	}

	private static String[] scopesBut(Scope left) {
		return EnumSet.complementOf(EnumSet.of(left)).stream().map(Scope::value).toArray(String[]::new);
	}

}
