package com.healthpartner.api.access;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

import com.healthpartner.api.problem.Problems;

import static org.assertj.core.api.Assertions.assertThat;

class AdminTokenTest {

	private final AdminToken token = new AdminToken(Problems.PROPERTIES);

	@Test
	void theAdminTokenIsAccepted() {
		assertThat(this.token.accepts(MockServerHttpRequest.get("/admin/v1/partners")
			.header("Authorization", "Bearer " + Problems.PROPERTIES.adminToken())
			.build())).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "Bearer wrong-token-0123456789", "Basic test-admin-token-0123456789",
			"Bearer hpk_0123456789" })
	void anyOtherAuthorizationIsRefused(String authorization) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/admin/v1/partners");
		if (!authorization.isEmpty()) {
			request.header("Authorization", authorization);
		}
		assertThat(this.token.accepts(request.build())).isFalse();
	}

}
