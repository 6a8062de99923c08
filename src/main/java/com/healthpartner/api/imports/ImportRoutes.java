package com.healthpartner.api.imports;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import io.netty.buffer.PooledByteBufAllocator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.audit.AuditActor;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.edge.LongUploads;
import com.healthpartner.api.idempotency.IdempotentCreates;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.records.RecordRepository;
import com.healthpartner.api.system.EventLoopPools;
import com.healthpartner.api.web.BytesBody;
import com.healthpartner.api.web.InFlightRequests;
import com.healthpartner.api.web.RequestLoad;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * {@code POST /api/v1/health/imports?kind=…} (an NDJSON body, stored as it arrives, then
 * {@code 202}; {@link ImportWorker} applies it), {@code GET /api/v1/health/imports/{id}}
 * and its {@code /errors}, and the list of a partner's imports (docs/api.md, Bulk writes:
 * imports; docs/design.md, Imports).
 */
@Configuration(proxyBeanMethods = false)
class ImportRoutes {

	private static final Log log = LogFactory.getLog(ImportRoutes.class);

	static final String PATH = "/api/v1/health/imports";

	private static final MediaType NDJSON = MediaType.APPLICATION_NDJSON;

	@Bean
	ImportRepository importRepository(DatabaseClient db, TransactionalOperator transaction) {
		return new ImportRepository(db, transaction);
	}

	@Bean
	ImportWorker importWorker(ImportRepository imports, List<RecordRepository> repositories, JsonBodies bodies,
			TransactionalOperator transaction, ImportProperties properties, java.time.Clock clock, RequestLoad load) {
		return new ImportWorker(imports, repositories, bodies, transaction, properties, clock, load);
	}

	@Bean
	RouterFunction<ServerResponse> partnerImports(ImportRepository imports, ImportWorker worker, EventLoopPools pools,
			ImportProperties properties, List<RecordKind> kinds, java.time.Clock clock, Cursors cursors,
			Listings listings, InFlightRequests requests) {
		// busy: a request other than the upload itself is being answered
		ImportLines lines = new ImportLines(pools.unwrap(), () -> requests.handling() > 1,
				properties.busyUploadRate().toBytes(), properties.chunkLines(), properties.chunkBytes().toBytes());
		Handler handler = new Handler(imports, lines, worker, properties, kinds, clock, cursors, listings);
		return Routes.under(PATH,
				route().POST(PATH, handler::create)
					.GET(PATH, handler::list)
					.GET(PATH + "/{id}", handler::get)
					.GET(PATH + "/{id}/errors", handler::errors)
					.build()
					.and(Routes.otherMethods(PATH, HttpMethod.GET, HttpMethod.POST))
					.and(Routes.otherMethods(PATH + "/{id}", HttpMethod.GET))
					.and(Routes.otherMethods(PATH + "/{id}/errors", HttpMethod.GET)));
	}

	private record Handler(ImportRepository imports, ImportLines lines, ImportWorker worker,
			ImportProperties properties, List<RecordKind> kinds, java.time.Clock clock, Cursors cursors,
			Listings listings) {

		/**
		 * The partner's imports of the kinds the key may read or write, newest first, as
		 * a list (a key with no scope of any kind: {@code 403}).
		 */
		Mono<ServerResponse> list(ServerRequest request) {
			ApiPrincipal principal = Principals.of(request);
			FieldErrors errors = new FieldErrors();
			int limit = Paging.limit(request, errors);
			errors.throwIfAny();
			List<String> resources = this.kinds.stream()
				.filter((kind) -> principal.scopes().contains(kind.read()) || principal.scopes().contains(kind.write()))
				.map(RecordKind::resource)
				.toList();
			if (resources.isEmpty()) {
				return Mono.error(new ApiException(ProblemType.INSUFFICIENT_SCOPE,
						"Listing imports needs a scope of metrics or of assessments"));
			}
			String query = "imports|" + String.join(",", resources);
			Cursors.Position after = request.queryParam("cursor")
				.map((cursor) -> this.cursors.decode(query, cursor))
				.orElse(null);
			return this.imports.list(principal.partnerId(), resources, after, limit + 1)
				.collectList()
				.map((rows) -> Paging.page(rows, limit, Function.identity(), ImportRow::createdAt, ImportRow::id,
						this.cursors, query))
				.flatMap(this.listings::page);
		}

		Mono<ServerResponse> create(ServerRequest request) {
			return Mono.defer(() -> {
				ApiPrincipal principal = Principals.of(request);
				FieldErrors errors = new FieldErrors();
				String named = request.queryParam("kind").orElse(null);
				RecordKind kind = kind(named);
				if (kind == null) {
					errors.add("kind",
							(named == null) ? "is required: metrics or assessments" : "must be metrics or assessments");
				}
				String key = IdempotentCreates.key(request, errors);
				errors.throwIfAny();
				if (!principal.scopes().contains(kind.write())) {
					throw new ApiException(ProblemType.INSUFFICIENT_SCOPE,
							"An import of " + kind.resource() + " needs the scope " + kind.write().value());
				}
				checkBody(request);
				AuditActor actor = AuditActor.of(request, this.clock.instant());
				Mono<ImportRow> replay = (key != null) ? this.imports.byKey(principal.partnerId(), key) : Mono.empty();
				// a replay reads the body it does not store: a signed one is verified at
				// its end
				return replay
					.flatMap((row) -> request.body(BodyExtractors.toDataBuffers())
						.doOnNext(DataBufferUtils::release)
						.then(accepted(row, true)))
					.switchIfEmpty(Mono.defer(() -> receive(request, kind, actor, key)));
			});
		}

		private Mono<ServerResponse> receive(ServerRequest request, RecordKind kind, AuditActor actor, String key) {
			UUID id = Ids.random();
			// the import's row is made once its upload holds the lock (ImportLines.store)
			Mono<?> admitted = this.imports.start(id, kind, actor, key, this.properties.maxActive())
				.switchIfEmpty(Mono.error(() -> new ApiException(ProblemType.TOO_MANY_IMPORTS,
						"Your organisation already has " + this.properties.maxActive()
								+ " imports receiving or processing; wait for one of them to complete",
						List.of(), Map.of(HttpHeaders.RETRY_AFTER, "10"))))
				.doOnNext((started) -> LongUploads.allow(request.exchange().getRequest()));
			return this.lines
				.store(id, admitted, request.body(BodyExtractors.toDataBuffers()), this.properties.maxBytes(),
						PooledByteBufAllocator.DEFAULT,
						(stored) -> this.imports.received(id, stored, this.clock.instant())
							// the row no longer receiving: a 500, never an empty answer
							.switchIfEmpty(Mono.error(() -> new IllegalStateException(
									"Import " + id + " was no longer receiving when its upload ended"))))
				.doOnNext((received) -> this.worker.wake())
				.onErrorResume((failure) -> this.imports.drop(id)
					.onErrorResume((ignored) -> Mono.empty())
					.then(Mono.error(failure)))
				// the connection closed under it (the client went, or the edge timed the
				// upload out): nobody waits for the drop
				.doOnCancel(() -> this.imports.drop(id)
					.subscribe(null,
							(failure) -> log.warn("Import " + id + " could not be dropped now; "
									+ "the worker drops it once its upload's lock is gone: " + failure)))
				.flatMap((row) -> accepted(row, false));
		}

		Mono<ServerResponse> get(ServerRequest request) {
			return visible(request)
				.flatMap((row) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(body(row)));
		}

		/** The refused lines, one JSON object a line, in line order. */
		Mono<ServerResponse> errors(ServerRequest request) {
			return visible(request).flatMap((row) -> ServerResponse.ok()
				.contentType(NDJSON)
				.body(this.imports.errors(row.id()).map((item) -> item + "\n"), String.class));
		}

		/**
		 * The import of the path, if it is the partner's and the key may read it; else
		 * 404.
		 */
		private Mono<ImportRow> visible(ServerRequest request) {
			ApiPrincipal principal = Principals.of(request);
			UUID id = RecordIds.parse(request.pathVariable("id"), "import");
			return this.imports.find(principal.partnerId(), id).filter((row) -> {
				RecordKind kind = kind(row.resource());
				return principal.scopes().contains(kind.read()) || principal.scopes().contains(kind.write());
			}).switchIfEmpty(Mono.error(() -> RecordIds.notFound("import", id)));
		}

		private RecordKind kind(String name) {
			return this.kinds.stream().filter((kind) -> kind.resource().equals(name)).findFirst().orElse(null);
		}

		private void checkBody(ServerRequest request) {
			MediaType type;
			try {
				type = request.headers().contentType().orElse(null);
			}
			catch (InvalidMediaTypeException ex) {
				type = null;
			}
			if (type == null || !NDJSON.equalsTypeAndSubtype(type)) {
				throw new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
						"Send an import with Content-Type: application/x-ndjson, one record a line");
			}
			if (request.headers().contentLength().orElse(-1) > this.properties.maxBytes()) {
				throw new ApiException(ProblemType.PAYLOAD_TOO_LARGE,
						"The import is larger than " + this.properties.maxBytes() + " bytes; split it");
			}
		}

		private static Mono<ServerResponse> accepted(ImportRow row, boolean replayed) {
			ServerResponse.BodyBuilder answer = ServerResponse.accepted()
				.header(HttpHeaders.LOCATION, row.path())
				.contentType(MediaType.APPLICATION_JSON);
			if (replayed) {
				answer.header(IdempotentCreates.REPLAYED, "true");
			}
			return answer.body(body(row));
		}

		private static org.springframework.web.reactive.function.BodyInserter<byte[], org.springframework.http.ReactiveHttpOutputMessage> body(
				ImportRow row) {
			return BytesBody.of(row.toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8));
		}

	}

}
