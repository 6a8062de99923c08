package com.healthpartner.api.access;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.system.AppProperties;

import static org.assertj.core.api.Assertions.assertThat;

class AdminTokenFilterTest {

	private static final String TOKEN = "admin-token-0123456789";

	private final AdminTokenFilter filter = new AdminTokenFilter(
			new AppProperties(TOKEN, "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", "http://localhost:8080", 65536));

	private final AtomicBoolean reached = new AtomicBoolean();

	@Test
	void theAdminTokenOpensTheAdminRoutes() {
		run(MockServerHttpRequest.get("/admin/v1/partners").header("Authorization", "Bearer " + TOKEN))
			.verifyComplete();
		assertThat(this.reached).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "Bearer wrong-token-0123456789", "Basic " + TOKEN, "Bearer hpk_0123456789" })
	void anyOtherAuthorizationIsRefusedBeforeRouting(String authorization) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/admin/v1/partners");
		if (!authorization.isEmpty()) {
			request.header("Authorization", authorization);
		}
		run(request).verifyErrorSatisfies(
				(failure) -> assertThat(((ApiException) failure).type()).isEqualTo(ProblemType.INVALID_ADMIN_TOKEN));
		assertThat(this.reached).isFalse();
	}

	@Test
	void anAdminPathWrittenAnotherWayIsCheckedToo() {
		run(MockServerHttpRequest.method(HttpMethod.GET, URI.create("/%61dmin;x/v1/partners")))
			.expectError(ApiException.class)
			.verify();
		assertThat(this.reached).isFalse();
	}

	@Test
	void otherPathsPassWithoutAToken() {
		run(MockServerHttpRequest.get("/api/v1/auth/me")).verifyComplete();
		assertThat(this.reached).isTrue();
	}

	private StepVerifier.FirstStep<Void> run(MockServerHttpRequest.BaseBuilder<?> request) {
		return this.filter.filter(MockServerWebExchange.from(request), (exchange) -> {
			this.reached.set(true);
			return Mono.empty();
		}).as(StepVerifier::create);
	}

}
