package com.healthpartner.api.webhook;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.healthpartner.api.access.ApiPrincipal;
import com.healthpartner.api.access.Principals;
import com.healthpartner.api.access.Scopes;
import com.healthpartner.api.changes.ChangesProperties;
import com.healthpartner.api.credential.SecretCipher;
import com.healthpartner.api.crypto.Ids;
import com.healthpartner.api.json.JsonBodies;
import com.healthpartner.api.json.JsonFields;
import com.healthpartner.api.json.RecordIds;
import com.healthpartner.api.listing.Cursors;
import com.healthpartner.api.listing.Listings;
import com.healthpartner.api.listing.Paging;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;
import com.healthpartner.api.records.RecordKind;
import com.healthpartner.api.web.BytesBody;
import com.healthpartner.api.web.CpuLoad;
import com.healthpartner.api.web.Routes;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * A partner's webhook endpoints ({@code /api/v1/webhooks}: add, list, read, change,
 * delete, rotate the secret, the delivery log, redelivery, a test message) and the
 * administrator's view of them ({@code GET /admin/v1/partners/{id}/webhooks}); any read
 * scope manages them (docs/api.md, Webhooks).
 */
@Configuration(proxyBeanMethods = false)
class WebhookRoutes {

	static final String PATH = "/api/v1/webhooks";

	private static final Set<String> FIELDS = Set.of("url", "events", "description");

	private static final Set<String> CHANGEABLE = Set.of("url", "events", "description", "status");

	private static final Set<String> STATUSES = Set.of("pending", "succeeded", "failing", "given_up");

	/** How long the previous secret signs beside a new one. */
	private static final Duration ROTATION = Duration.ofHours(24);

	private static final int MAX_DESCRIPTION = 500;

	@Bean
	WebhookEvents webhookEvents(List<RecordKind> kinds) {
		return new WebhookEvents(kinds);
	}

	@Bean
	WebhookRepository webhookRepository(DatabaseClient db, TransactionalOperator transaction, WebhookEvents events) {
		return new WebhookRepository(db, transaction, events);
	}

	@Bean
	WebhookUrls webhookUrls(WebhookProperties properties) {
		return new WebhookUrls(properties);
	}

	@Bean
	WebhookSender webhookSender(WebhookRepository webhooks, WebhookUrls urls, SecretCipher cipher, Cursors cursors,
			List<RecordKind> kinds, WebhookEvents events, WebhookProperties properties, Clock clock, CpuLoad cpu) {
		return new WebhookSender(webhooks, urls, cipher, cursors, kinds, events, properties, clock, cpu::saturated);
	}

	@Bean
	DeliveryRetention deliveryRetention(WebhookRepository webhooks, ChangesProperties changes, Clock clock) {
		return new DeliveryRetention(webhooks, changes, clock);
	}

	@Bean
	WebhookDispatcher webhookDispatcher(WebhookRepository webhooks, WebhookSender sender, WebhookProperties properties,
			Clock clock, CpuLoad cpu) {
		return new WebhookDispatcher(webhooks, sender, properties.pollInterval(), clock, cpu::saturated,
				cpu::requestsUnderWay, properties.busyShare());
	}

	@Bean
	RouterFunction<ServerResponse> partnerWebhooks(WebhookRepository webhooks, WebhookUrls urls, WebhookEvents events,
			WebhookSender sender, SecretCipher cipher, WebhookProperties properties, JsonBodies bodies, Cursors cursors,
			Listings listings, Clock clock) {
		Handler handler = new Handler(webhooks, urls, events, sender, cipher, properties, bodies, cursors, listings,
				clock);
		String one = PATH + "/{id}";
		return Routes.under(PATH,
				route().POST(PATH, handler::create)
					.GET(PATH, handler::list)
					.GET(one, handler::get)
					.PATCH(one, handler::update)
					.DELETE(one, handler::delete)
					.POST(one + "/rotate-secret", handler::rotate)
					.GET(one + "/deliveries", handler::deliveries)
					.POST(one + "/deliveries/{deliveryId}/redeliver", handler::redeliver)
					.POST(one + "/test", handler::test)
					.filter(Scopes.requireAny(events.readScopes()))
					.build()
					.and(Routes.otherMethods(PATH, HttpMethod.GET, HttpMethod.POST))
					.and(Routes.otherMethods(one, HttpMethod.GET, HttpMethod.PATCH, HttpMethod.DELETE))
					.and(Routes.otherMethods(one + "/rotate-secret", HttpMethod.POST))
					.and(Routes.otherMethods(one + "/deliveries", HttpMethod.GET))
					.and(Routes.otherMethods(one + "/deliveries/{deliveryId}/redeliver", HttpMethod.POST))
					.and(Routes.otherMethods(one + "/test", HttpMethod.POST)));
	}

	@Bean
	RouterFunction<ServerResponse> adminWebhooks(WebhookRepository webhooks, DatabaseClient db, Listings listings) {
		String path = "/admin/v1/partners/{id}/webhooks";
		return route().GET(path, (request) -> {
			UUID partnerId = RecordIds.parse(request.pathVariable("id"), "partner");
			return db.sql("select 1 from partners where id = :id")
				.bind("id", partnerId)
				.map((row) -> Boolean.TRUE)
				.one()
				.switchIfEmpty(Mono.error(() -> RecordIds.notFound("partner", partnerId)))
				.flatMapMany((found) -> webhooks.list(partnerId, null, 1000))
				.collectList()
				.flatMap((rows) -> listings.page(new com.healthpartner.api.listing.Page<>(rows, null)));
		}).build().and(Routes.otherMethods(path, HttpMethod.GET));
	}

	private record Handler(WebhookRepository webhooks, WebhookUrls urls, WebhookEvents events, WebhookSender sender,
			SecretCipher cipher, WebhookProperties properties, JsonBodies bodies, Cursors cursors, Listings listings,
			Clock clock) {

		Mono<ServerResponse> create(ServerRequest request) {
			ApiPrincipal principal = Principals.of(request);
			return this.bodies.readObject(request).flatMap((body) -> {
				FieldErrors errors = new FieldErrors();
				JsonFields.rejectUnknown(body, FIELDS, errors);
				URI url = url(body, errors);
				String[] events = events(body, errors);
				String description = JsonFields.optionalText(body, "description", 0, MAX_DESCRIPTION, errors);
				errors.throwIfAny();
				String secret = WebhookSecrets.generate();
				return checked(url)
					.then(this.webhooks.create(Ids.random(), principal.partnerId(), url.toString(), events, description,
							this.cipher.encrypt(secret), this.clock.instant(), this.properties.maxPerPartner()))
					.switchIfEmpty(Mono.error(() -> new ApiException(ProblemType.WEBHOOK_LIMIT,
							"Your organisation already has " + this.properties.maxPerPartner()
									+ " webhook endpoints; delete one first")))
					.flatMap((row) -> ServerResponse.status(HttpStatus.CREATED)
						.header(HttpHeaders.LOCATION, row.path())
						.contentType(MediaType.APPLICATION_JSON)
						.body(BytesBody.of(row.withSecret(secret, null).getBytes(StandardCharsets.UTF_8))));
			});
		}

		Mono<ServerResponse> list(ServerRequest request) {
			ApiPrincipal principal = Principals.of(request);
			FieldErrors errors = new FieldErrors();
			int limit = Paging.limit(request, errors);
			errors.throwIfAny();
			String query = "webhooks|" + principal.partnerId();
			Cursors.Position after = request.queryParam("cursor")
				.map((cursor) -> this.cursors.decode(query, cursor))
				.orElse(null);
			return this.webhooks.list(principal.partnerId(), after, limit + 1)
				.collectList()
				.map((rows) -> Paging.page(rows, limit, Function.identity(), WebhookRow::createdAt, WebhookRow::id,
						this.cursors, query))
				.flatMap(this.listings::page);
		}

		Mono<ServerResponse> get(ServerRequest request) {
			return found(request).flatMap(this.listings::one);
		}

		Mono<ServerResponse> update(ServerRequest request) {
			ApiPrincipal principal = Principals.of(request);
			UUID id = id(request);
			return this.bodies.readObject(request).flatMap((body) -> {
				FieldErrors errors = new FieldErrors();
				JsonFields.rejectUnknown(body, CHANGEABLE, errors);
				URI url = body.has("url") ? url(body, errors) : null;
				boolean eventsSet = body.has("events");
				String[] events = eventsSet ? events(body, errors) : null;
				boolean descriptionSet = body.has("description");
				String description = JsonFields.optionalText(body, "description", 0, MAX_DESCRIPTION, errors);
				String status = null;
				if (body.has("status")) {
					JsonNode node = body.get("status");
					status = (node.isString()) ? node.stringValue() : null;
					if (!"enabled".equals(status) && !"disabled".equals(status)) {
						errors.add("status", "must be enabled or disabled");
					}
				}
				errors.throwIfAny();
				WebhookRepository.Change change = new WebhookRepository.Change((url != null) ? url.toString() : null,
						eventsSet, events, descriptionSet, description, status);
				return ((url != null) ? checked(url) : Mono.empty())
					.then(this.webhooks.update(principal.partnerId(), id, change, this.clock.instant()))
					.switchIfEmpty(Mono.error(() -> RecordIds.notFound("webhook", id)))
					.doOnNext((row) -> this.sender.wake())
					.flatMap(this.listings::one);
			});
		}

		Mono<ServerResponse> delete(ServerRequest request) {
			UUID id = id(request);
			return this.webhooks.delete(Principals.of(request).partnerId(), id, this.clock.instant())
				.flatMap((deleted) -> deleted ? ServerResponse.noContent().build()
						: Mono.error(RecordIds.notFound("webhook", id)));
		}

		Mono<ServerResponse> rotate(ServerRequest request) {
			UUID id = id(request);
			String secret = WebhookSecrets.generate();
			Instant now = this.clock.instant();
			Instant until = now.plus(ROTATION);
			return this.webhooks.rotate(Principals.of(request).partnerId(), id, this.cipher.encrypt(secret), now, until)
				.switchIfEmpty(Mono.error(() -> RecordIds.notFound("webhook", id)))
				.flatMap((row) -> ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.body(BytesBody.of(row.withSecret(secret, until).getBytes(StandardCharsets.UTF_8))));
		}

		Mono<ServerResponse> deliveries(ServerRequest request) {
			FieldErrors errors = new FieldErrors();
			int limit = Paging.limit(request, errors);
			String status = request.queryParam("status").orElse(null);
			if (status != null && !STATUSES.contains(status)) {
				errors.add("status", "must be pending, succeeded, failing or given_up");
			}
			errors.throwIfAny();
			return found(request).flatMap((webhook) -> {
				String query = "deliveries|" + webhook.id() + "|" + status;
				Cursors.Position after = request.queryParam("cursor")
					.map((cursor) -> this.cursors.decode(query, cursor))
					.orElse(null);
				return this.webhooks.deliveries(webhook.id(), status, after, limit + 1)
					.collectList()
					.map((rows) -> Paging.page(rows, limit, Function.identity(), DeliveryRow::createdAt,
							DeliveryRow::id, this.cursors, query));
			}).flatMap(this.listings::page);
		}

		Mono<ServerResponse> redeliver(ServerRequest request) {
			UUID deliveryId = RecordIds.parse(request.pathVariable("deliveryId"), "delivery");
			return found(request)
				.flatMap((webhook) -> enabled(webhook, "redelivering")
					.then(this.webhooks.redeliver(webhook.id(), deliveryId, this.clock.instant())))
				.switchIfEmpty(Mono.error(() -> RecordIds.notFound("delivery", deliveryId)))
				.doOnNext((delivery) -> this.sender.wake())
				.flatMap(this::accepted);
		}

		Mono<ServerResponse> test(ServerRequest request) {
			return found(request).flatMap((webhook) -> enabled(webhook, "testing").then(Mono.defer(() -> {
				Instant now = this.clock.instant();
				StringBuilder data = new StringBuilder("{\"webhook_id\":\"").append(webhook.id()).append("\",\"url\":");
				com.healthpartner.api.text.JsonText.quote(data, webhook.url()).append('}');
				return this.webhooks.test(webhook, data.toString(), now);
			}))).doOnNext((delivery) -> this.sender.wake()).flatMap(this::accepted);
		}

		private Mono<ServerResponse> accepted(DeliveryRow delivery) {
			return ServerResponse.accepted()
				.contentType(MediaType.APPLICATION_JSON)
				.body(BytesBody.of(delivery.toJson().getBytes(StandardCharsets.UTF_8)));
		}

		private static Mono<Void> enabled(WebhookRow webhook, String what) {
			if (!"enabled".equals(webhook.status())) {
				return Mono.error(new ApiException(ProblemType.CONFLICT,
						"The endpoint is disabled; enable it (PATCH status: enabled) before " + what));
			}
			return Mono.empty();
		}

		private Mono<WebhookRow> found(ServerRequest request) {
			UUID id = id(request);
			return this.webhooks.find(Principals.of(request).partnerId(), id)
				.switchIfEmpty(Mono.error(() -> RecordIds.notFound("webhook", id)));
		}

		private static UUID id(ServerRequest request) {
			return RecordIds.parse(request.pathVariable("id"), "webhook");
		}

		private URI url(ObjectNode body, FieldErrors errors) {
			String text = JsonFields.requiredText(body, "url", 1, WebhookUrls.MAX_LENGTH, errors);
			if (text == null) {
				return null;
			}
			try {
				return this.urls.parse(text);
			}
			catch (WebhookUrls.Refused refused) {
				errors.add("url", refused.getMessage());
				return null;
			}
		}

		/** The URL's host resolves to addresses that may receive webhooks, or a 400. */
		private Mono<Void> checked(URI url) {
			return this.urls.resolve(url)
				.onErrorMap(WebhookUrls.Refused.class,
						(refused) -> ApiException.invalidField("url", refused.getMessage()))
				.then();
		}

		/** The events asked for; null for every event (absent or null). */
		private String[] events(ObjectNode body, FieldErrors errors) {
			JsonNode node = body.get("events");
			if (node == null || node.isNull()) {
				return null;
			}
			if (!node.isArray() || node.isEmpty()) {
				errors.add("events", "must be a non-empty list of events, or left out for every event");
				return null;
			}
			Set<String> events = new LinkedHashSet<>();
			for (int i = 0; i < node.size(); i++) {
				JsonNode event = node.get(i);
				if (!event.isString() || !this.events.all().contains(event.stringValue())) {
					errors.add("events[" + i + "]", "must be one of " + String.join(", ", this.events.all()));
				}
				else {
					events.add(event.stringValue());
				}
			}
			return events.toArray(String[]::new);
		}

	}

}
