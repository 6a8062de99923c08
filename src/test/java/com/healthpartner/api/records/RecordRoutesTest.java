package com.healthpartner.api.records;

import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.support.Expect;
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
 * The routes of each record kind on their own: which handler each path and method
 * reaches, the scope each needs (check 5, after the filters), and {@code 405} with
 * {@code Allow} for other methods. The handler is a stand-in; no server, no database.
 */
class RecordRoutesTest {

	private static final String KINDS = "com.healthpartner.api.support.Kinds#all";

	private final RecordHandler handler = mock(RecordHandler.class);

	private final RecordBatches batches = mock(RecordBatches.class);

	private Set<Scope> scopes = EnumSet.allOf(Scope.class);

	private WebTestClient client(RecordKind kind) {
		when(this.handler.create(any())).thenReturn(ServerResponse.status(HttpStatus.CREATED).build());
		when(this.handler.list(any())).thenReturn(ServerResponse.ok().bodyValue("list"));
		when(this.handler.get(any())).thenReturn(ServerResponse.ok().bodyValue("one"));
		when(this.handler.delete(any())).thenReturn(ServerResponse.noContent().build());
		when(this.batches.create(any())).thenReturn(ServerResponse.ok().bodyValue("batch"));
		return WebTestClient.bindToRouterFunction(RecordRoutes.routes(kind, this.handler, this.batches))
			.handlerStrategies(HandlerStrategies.builder().webFilter((exchange, chain) -> {
				exchange.getAttributes()
					.put(ApiPrincipal.ATTRIBUTE, new ApiPrincipal(UUID.randomUUID(), "Iron Gym", "default",
							PartnerStatus.ACTIVE, UUID.randomUUID(), this.scopes, false, null, new byte[0]));
				return chain.filter(exchange);
			}).exceptionHandler(Problems.handler()).build())
			.build();
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void eachPathAndMethodReachesItsHandler(RecordKind kind) {
		WebTestClient client = client(kind);
		client.post().uri(kind.path()).exchange().expectStatus().isCreated();
		client.post().uri(kind.path() + "/batch").exchange().expectBody(String.class).isEqualTo("batch");
		client.get().uri(kind.path() + "?user_id=u1").exchange().expectBody(String.class).isEqualTo("list");
		client.get().uri(kind.path() + "/" + UUID.randomUUID()).exchange().expectBody(String.class).isEqualTo("one");
		client.delete().uri(kind.path() + "/" + UUID.randomUUID()).exchange().expectStatus().isNoContent();
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void writesNeedTheKindsWriteScopeAndAreRefusedBeforeTheirHandler(RecordKind kind) {
		this.scopes = EnumSet.complementOf(EnumSet.of(kind.write()));
		WebTestClient client = client(kind);
		Expect.problem(client.post().uri(kind.path()).exchange(), HttpStatus.FORBIDDEN, "insufficient_scope")
			.jsonPath("$.detail")
			.value((detail) -> assertThat((String) detail).contains(kind.write().value()));
		client.delete().uri(kind.path() + "/" + UUID.randomUUID()).exchange().expectStatus().isForbidden();
		client.post().uri(kind.path() + "/batch").exchange().expectStatus().isForbidden();
		verify(this.handler, never()).create(any());
		verify(this.handler, never()).delete(any());
		verify(this.batches, never()).create(any());
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void readsNeedTheKindsReadScope(RecordKind kind) {
		this.scopes = EnumSet.complementOf(EnumSet.of(kind.read()));
		WebTestClient client = client(kind);
		client.get().uri(kind.path() + "?user_id=u1").exchange().expectStatus().isForbidden();
		client.get().uri(kind.path() + "/" + UUID.randomUUID()).exchange().expectStatus().isForbidden();
		verify(this.handler, never()).list(any());
		verify(this.handler, never()).get(any());
	}

	@ParameterizedTest
	@MethodSource(KINDS)
	void anotherMethodIs405WithTheMethodsThePathAccepts(RecordKind kind) {
		WebTestClient client = client(kind);
		Expect.notAllowed(client.put().uri(kind.path()).exchange(), "GET, POST")
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("method_not_allowed");
		Expect.notAllowed(client.patch().uri(kind.path() + "/" + UUID.randomUUID()).exchange(), "DELETE, GET");
		// not a record's id: the batch's path takes POST only
		Expect.notAllowed(client.get().uri(kind.path() + "/batch").exchange(), "POST");
		Expect.notAllowed(client.delete().uri(kind.path() + "/batch").exchange(), "POST");
		verify(this.handler, never()).get(any());
	}

}
