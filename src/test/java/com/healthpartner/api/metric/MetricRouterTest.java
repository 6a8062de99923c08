package com.healthpartner.api.metric;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The metrics routes on their own: which handler each path and method reaches, the scope
 * each needs (check 5, after the filters), and {@code 405} with {@code Allow} for other
 * methods. The handler is a stand-in; no server, no database.
 */
class MetricRouterTest {

	private final MetricHandler handler = mock(MetricHandler.class);

	private Set<Scope> scopes = EnumSet.allOf(Scope.class);

	private WebTestClient client;

	@BeforeEach
	void routes() {
		when(this.handler.create(any())).thenReturn(ServerResponse.status(HttpStatus.CREATED).build());
		when(this.handler.list(any())).thenReturn(ServerResponse.ok().bodyValue("list"));
		when(this.handler.get(any())).thenReturn(ServerResponse.ok().bodyValue("one"));
		when(this.handler.catalog(any())).thenReturn(ServerResponse.ok().bodyValue("catalog"));
		this.client = WebTestClient.bindToRouterFunction(new MetricRouter().metricRoutes(this.handler))
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
		this.client.post().uri("/api/v1/health/metrics").exchange().expectStatus().isCreated();
		this.client.get()
			.uri("/api/v1/health/metrics?user_id=u1")
			.exchange()
			.expectBody(String.class)
			.isEqualTo("list");
		this.client.get()
			.uri("/api/v1/health/metrics/" + UUID.randomUUID())
			.exchange()
			.expectBody(String.class)
			.isEqualTo("one");
		this.client.get()
			.uri("/api/v1/health/metrics/catalog")
			.exchange()
			.expectBody(String.class)
			.isEqualTo("catalog");
	}

	@Test
	void aWriteNeedsMetricsWriteAndIsRefusedBeforeItsHandler() {
		this.scopes = EnumSet.of(Scope.METRICS_READ);
		this.client.post()
			.uri("/api/v1/health/metrics")
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("insufficient_scope")
			.jsonPath("$.detail")
			.value((detail) -> assertThat((String) detail).contains("metrics:write"));
		verify(this.handler, never()).create(any());
	}

	@Test
	void readsNeedMetricsReadButTheCatalogOnlyAValidKey() {
		this.scopes = EnumSet.of(Scope.METRICS_WRITE);
		this.client.get().uri("/api/v1/health/metrics?user_id=u1").exchange().expectStatus().isForbidden();
		this.client.get().uri("/api/v1/health/metrics/" + UUID.randomUUID()).exchange().expectStatus().isForbidden();
		this.client.get().uri("/api/v1/health/metrics/catalog").exchange().expectStatus().isOk();
		verify(this.handler, never()).list(any());
		verify(this.handler, never()).get(any());
	}

	@Test
	void anotherMethodIs405WithTheMethodsThePathAccepts() {
		this.client.put()
			.uri("/api/v1/health/metrics")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectHeader()
			.valueEquals("Allow", "GET, POST")
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("method_not_allowed");
		this.client.post()
			.uri("/api/v1/health/metrics/catalog")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectHeader()
			.valueEquals("Allow", "GET");
	}

}
