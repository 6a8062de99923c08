package com.healthpartner.api.assessment;

import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.PartnerStatus;
import com.healthpartner.api.access.Scope;
import com.healthpartner.api.problem.Problems;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The assessment routes on their own: handler, scope and {@code 405} of each path and
 * method, with a stand-in handler.
 */
class AssessmentRouterTest {

	private final AssessmentHandler handler = mock(AssessmentHandler.class);

	private Set<Scope> scopes = EnumSet.allOf(Scope.class);

	private WebTestClient client;

	@BeforeEach
	void routes() {
		when(this.handler.create(any())).thenReturn(ServerResponse.status(HttpStatus.CREATED).build());
		when(this.handler.list(any())).thenReturn(ServerResponse.ok().bodyValue("list"));
		when(this.handler.get(any())).thenReturn(ServerResponse.ok().bodyValue("one"));
		this.client = WebTestClient.bindToRouterFunction(new AssessmentRouter().assessmentRoutes(this.handler))
			.handlerStrategies(HandlerStrategies.builder().webFilter((exchange, chain) -> {
				exchange.getAttributes()
					.put(ApiPrincipal.ATTRIBUTE, new ApiPrincipal(UUID.randomUUID(), "Iron Gym", "default",
							PartnerStatus.ACTIVE, UUID.randomUUID(), this.scopes, false, null, new byte[0]));
				return chain.filter(exchange);
			}).exceptionHandler(Problems.handler()).build())
			.build();
	}

	@Test
	void eachPathAndMethodReachesItsHandler() {
		this.client.post().uri("/api/v1/health/assessments").exchange().expectStatus().isCreated();
		this.client.get()
			.uri("/api/v1/health/assessments?user_id=u1")
			.exchange()
			.expectBody(String.class)
			.isEqualTo("list");
		this.client.get()
			.uri("/api/v1/health/assessments/" + UUID.randomUUID())
			.exchange()
			.expectBody(String.class)
			.isEqualTo("one");
	}

	@Test
	void writesNeedAssessmentsWriteAndReadsAssessmentsRead() {
		this.scopes = EnumSet.of(Scope.METRICS_READ, Scope.METRICS_WRITE);
		this.client.post()
			.uri("/api/v1/health/assessments")
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("insufficient_scope");
		this.client.get().uri("/api/v1/health/assessments?user_id=u1").exchange().expectStatus().isForbidden();
		verify(this.handler, never()).create(any());
		verify(this.handler, never()).list(any());
	}

	@Test
	void anotherMethodIs405WithTheMethodsThePathAccepts() {
		this.client.patch()
			.uri("/api/v1/health/assessments/" + UUID.randomUUID())
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectHeader()
			.valueEquals("Allow", "DELETE, GET");
	}

}
