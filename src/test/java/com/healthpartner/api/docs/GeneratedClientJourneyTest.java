package com.healthpartner.api.docs;

import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import com.healthpartner.api.support.Eventually;
import com.healthpartner.api.support.WebhookReceiver;
import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.client.ApiClient;
import com.healthpartner.client.ApiException;
import com.healthpartner.client.ApiResponse;
import com.healthpartner.client.api.AdministrationApi;
import com.healthpartner.client.api.AssessmentsApi;
import com.healthpartner.client.api.MetricsApi;
import com.healthpartner.client.api.OnboardingApi;
import com.healthpartner.client.api.SyncApi;
import com.healthpartner.client.api.WebhooksApi;
import com.healthpartner.client.model.AdminRegistration;
import com.healthpartner.client.model.ApproveRequest;
import com.healthpartner.client.model.Assessment;
import com.healthpartner.client.model.AssessmentPage;
import com.healthpartner.client.model.AssessmentRequest;
import com.healthpartner.client.model.BatchItemRefused;
import com.healthpartner.client.model.Change;
import com.healthpartner.client.model.ChangePage;
import com.healthpartner.client.model.Erasure;
import com.healthpartner.client.model.FieldError;
import com.healthpartner.client.model.IssuedCredentials;
import com.healthpartner.client.model.Me;
import com.healthpartner.client.model.MetricCatalog;
import com.healthpartner.client.model.MetricDefinition;
import com.healthpartner.client.model.Metrics;
import com.healthpartner.client.model.ImportError;
import com.healthpartner.client.model.MetricsBatchItemStored;
import com.healthpartner.client.model.ModelImport;
import com.healthpartner.client.model.MetricsBatchRequest;
import com.healthpartner.client.model.MetricsBatchResults;
import com.healthpartner.client.model.MetricsPage;
import com.healthpartner.client.model.MetricsRecord;
import com.healthpartner.client.model.MetricsRequest;
import com.healthpartner.client.model.Partner;
import com.healthpartner.client.model.Problem;
import com.healthpartner.client.model.ProblemCode;
import com.healthpartner.client.model.Registration;
import com.healthpartner.client.model.RegistrationPage;
import com.healthpartner.client.model.RegistrationRequest;
import com.healthpartner.client.model.RegistrationStatus;
import com.healthpartner.client.model.Scope;
import com.healthpartner.client.model.Webhook;
import com.healthpartner.client.model.WebhookDelivery;
import com.healthpartner.client.model.WebhookDeliveryPage;
import com.healthpartner.client.model.WebhookEvent;
import com.healthpartner.client.model.WebhookMessage;
import com.healthpartner.client.model.WebhookMessageType;
import com.healthpartner.client.model.WebhookPatch;
import com.healthpartner.client.model.WebhookRequest;
import com.healthpartner.client.model.WebhookWithSecret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A partner's journey through the Java client generated from the OpenAPI document at
 * build time ({@code target/generated-test-sources/openapi}): if the document and the
 * service disagree, the client cannot do its job. The client refuses fields its models do
 * not know.
 */
class GeneratedClientJourneyTest extends IntegrationTest {

	@Test
	void onboardingAndProblemsThroughTheGeneratedClient() throws Exception {
		OnboardingApi anonymous = new OnboardingApi(client((request) -> {
		}));
		String email = "journey+" + UUID.randomUUID() + "@gym.example";
		Registration registration = anonymous
			.registerPartner(new RegistrationRequest().email(email).partnerName(" Journey Gym "));
		assertThat(registration.getStatus()).isEqualTo(Registration.StatusEnum.PENDING);
		assertThat(registration.getPartnerName()).isEqualTo("Journey Gym");

		AdministrationApi admin = admin();
		assertThat(pendingRegistrations(admin)).extracting(AdminRegistration::getRegistrationId)
			.contains(registration.getRegistrationId());
		IssuedCredentials credentials = admin.approveRegistration(registration.getRegistrationId().toString(),
				new ApproveRequest().plan("enterprise").scopes(EnumSet.of(Scope.METRICS_READ, Scope.METRICS_WRITE)));
		assertThat(credentials.getApiKey()).matches("hpk_[0-9A-Za-z]{32}");
		assertThat(credentials.getExpiresAt()).isNull();

		Me me = new OnboardingApi(partner(credentials)).getMe();
		assertThat(me.getPartnerId()).isEqualTo(credentials.getPartnerId());
		assertThat(me.getKeyId()).isEqualTo(credentials.getKeyId());
		assertThat(me.getPlan()).isEqualTo("enterprise");
		assertThat(me.getScopes()).containsExactlyInAnyOrder(Scope.METRICS_READ, Scope.METRICS_WRITE);
		Partner partner = admin.getPartner(credentials.getPartnerId().toString());
		assertThat(partner.getEmail()).isEqualTo(email);
		assertThat(partner.getKeys()).singleElement()
			.satisfies((key) -> assertThat(credentials.getApiKey()).startsWith(key.getPrefix()));

		ApiException refused = catchThrowableOfType(ApiException.class,
				() -> anonymous.registerPartner(new RegistrationRequest().email("not-an-email").partnerName(" ")));
		Problem problem = problem(refused, 400);
		assertThat(problem.getCode()).isEqualTo(ProblemCode.VALIDATION_FAILED);
		assertThat(problem.getErrors()).extracting(FieldError::getField)
			.containsExactlyInAnyOrder("email", "partner_name");
		ApiException twice = catchThrowableOfType(ApiException.class, () -> anonymous
			.registerPartner(new RegistrationRequest().email(email.toUpperCase()).partnerName("Again")));
		assertThat(problem(twice, 409).getCode()).isEqualTo(ProblemCode.REGISTRATION_EXISTS);
	}

	/**
	 * The health-data half of the journey. It needs the health-data routes: on a branch
	 * without them the first write is answered 404.
	 */
	@Test
	void healthDataThroughTheGeneratedClient() throws Exception {
		IssuedCredentials credentials = onboard();
		MetricsApi metrics = new MetricsApi(partner(credentials));
		AssessmentsApi assessments = new AssessmentsApi(partner(credentials));
		String user = "member-" + UUID.randomUUID();
		OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);

		MetricsRecord first = metrics.createMetrics(
				new MetricsRequest().userId(user)
					.metrics(new Metrics().weight(new BigDecimal("72.5")).restingHeartRate(new BigDecimal("58")))
					.recordedAt(now.minusDays(2).withOffsetSameInstant(ZoneOffset.ofHours(1))),
				UUID.randomUUID().toString());
		assertThat(first.getUserId()).isEqualTo(user);
		assertThat(first.getRecordedAt().toInstant()).isEqualTo(now.minusDays(2).toInstant());
		MetricsRecord second = metrics.createMetrics(
				new MetricsRequest().userId(user).metrics(new Metrics().steps(8000)).recordedAt(now.minusDays(1)),
				null);
		MetricsRecord read = metrics.getMetrics(first.getId().toString());
		assertThat(read.getMetrics().getWeight()).isEqualByComparingTo("72.5");
		assertThat(read.getCreatedAt()).isEqualTo(first.getCreatedAt());

		String from = now.minusDays(3).toLocalDate().toString();
		String to = now.toLocalDate().toString();
		MetricsPage page = metrics.listMetrics(user, from, to, 1, null);
		assertThat(page.getData()).extracting(MetricsRecord::getId).containsExactly(first.getId());
		assertThat(page.getNextCursor()).isNotNull();
		MetricsPage last = metrics.listMetrics(user, from, to, 1, page.getNextCursor());
		assertThat(last.getData()).extracting(MetricsRecord::getId).containsExactly(second.getId());
		assertThat(last.getNextCursor()).isNull();

		MetricCatalog catalog = metrics.getMetricCatalog();
		assertThat(catalog.getData()).hasSize(14)
			.filteredOn((definition) -> definition.getName() == MetricDefinition.NameEnum.WEIGHT)
			.singleElement()
			.satisfies((weight) -> {
				assertThat(weight.getUnit()).isEqualTo("kg");
				assertThat(weight.getExclusiveMinimum()).isTrue();
			});

		List<Assessment> created = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			created.add(assessments.createAssessment(
					new AssessmentRequest().userId(user).responses(Map.of("question", i, "smoker", false)), null));
		}
		assertThat(assessments.getAssessment(created.get(1).getId().toString()).getResponses())
			.containsEntry("question", 1);
		List<UUID> listed = new ArrayList<>();
		String cursor = null;
		do {
			AssessmentPage assessmentPage = assessments.listAssessments(user, 2, cursor);
			assessmentPage.getData().forEach((assessment) -> listed.add(assessment.getId()));
			cursor = assessmentPage.getNextCursor();
		}
		while (cursor != null);
		assertThat(listed).containsExactlyElementsOf(created.stream().map(Assessment::getId).toList());

		ApiException refused = catchThrowableOfType(ApiException.class, () -> metrics.createMetrics(
				new MetricsRequest().userId(user).metrics(new Metrics().weight(new BigDecimal("900"))), null));
		Problem problem = problem(refused, 400);
		assertThat(problem.getCode()).isEqualTo(ProblemCode.VALIDATION_FAILED);
		assertThat(problem.getErrors()).extracting(FieldError::getField).containsExactly("metrics.weight");
		assertThat(metrics.listMetrics(user, null, null, null, null).getData()).hasSize(2);
	}

	/**
	 * A batch through the generated models: one result per item, in order, a refused item
	 * beside the stored ones, the summary, and the stored records read back.
	 */
	@Test
	void aBatchThroughTheGeneratedClient() throws Exception {
		IssuedCredentials credentials = onboard();
		MetricsApi metrics = new MetricsApi(partner(credentials));
		String user = "member-" + UUID.randomUUID();
		MetricsBatchResults answer = metrics.createMetricsBatch(new MetricsBatchRequest().records(List.of(
				new MetricsRequest().userId(user)
					.clientRecordId("scale-1")
					.metrics(new Metrics().weight(new BigDecimal("70"))),
				new MetricsRequest().userId(user).metrics(new Metrics().weight(new BigDecimal("900"))),
				new MetricsRequest().userId(user)
					.clientRecordId("scale-1")
					.clientRecordVersion(2L)
					.metrics(new Metrics().weight(new BigDecimal("71"))))),
				UUID.randomUUID().toString());

		MetricsBatchItemStored created = answer.getResults().get(0).getMetricsBatchItemStored();
		assertThat(created.getOutcome()).isEqualTo(MetricsBatchItemStored.OutcomeEnum.CREATED);
		assertThat(created.getStatus()).isEqualTo(MetricsBatchItemStored.StatusEnum.NUMBER_201);
		BatchItemRefused refused = answer.getResults().get(1).getBatchItemRefused();
		assertThat(refused.getIndex()).isEqualTo(1);
		assertThat(refused.getErrors()).extracting(FieldError::getField).containsExactly("metrics.weight");
		MetricsBatchItemStored updated = answer.getResults().get(2).getMetricsBatchItemStored();
		assertThat(updated.getOutcome()).isEqualTo(MetricsBatchItemStored.OutcomeEnum.UPDATED);
		assertThat(updated.getRecord().getId()).isEqualTo(created.getRecord().getId());
		assertThat(answer.getSummary().getCreated()).isEqualTo(1);
		assertThat(answer.getSummary().getUpdated()).isEqualTo(1);
		assertThat(answer.getSummary().getFailed()).isEqualTo(1);
		assertThat(metrics.getMetrics(created.getRecord().getId().toString()).getMetrics().getWeight())
			.isEqualByComparingTo("71");
	}

	/**
	 * An import through the generated client: the NDJSON body sent, {@code 202} with the
	 * import, followed until completed, its refused line, the list, and the records.
	 */
	@Test
	void anImportThroughTheGeneratedClient() throws Exception {
		IssuedCredentials credentials = onboard();
		MetricsApi metrics = new MetricsApi(partner(credentials));
		String user = "member-" + UUID.randomUUID();
		String body = "{\"user_id\":\"" + user + "\",\"client_record_id\":\"scale-1\",\"metrics\":{\"weight\":70}}\n"
				+ "{\"user_id\":\"" + user + "\",\"metrics\":{\"weight\":900}}\n" + "{\"user_id\":\"" + user
				+ "\",\"client_record_id\":\"scale-1\",\"client_record_version\":2,\"metrics\":{\"weight\":71}}\n";
		ModelImport accepted = metrics.createImport("metrics", body, UUID.randomUUID().toString());
		assertThat(accepted.getLines()).isEqualTo(3);
		ModelImport done = Eventually.eventually(Duration.ofSeconds(20), () -> {
			try {
				return metrics.getImport(accepted.getImportId().toString());
			}
			catch (ApiException ex) {
				throw new IllegalStateException(ex);
			}
		}, (now) -> now.getStatus() != ModelImport.StatusEnum.PROCESSING);
		assertThat(done.getStatus()).isEqualTo(ModelImport.StatusEnum.COMPLETED);
		assertThat(done.getCreated()).isEqualTo(1);
		assertThat(done.getUpdated()).isEqualTo(1);
		assertThat(done.getFailed()).isEqualTo(1);
		ImportError refused = metrics.getImportErrors(accepted.getImportId().toString());
		assertThat(refused.getLine()).isEqualTo(2);
		assertThat(refused.getErrors()).extracting(FieldError::getField).containsExactly("metrics.weight");
		assertThat(metrics.listImports(10, null).getData()).extracting(ModelImport::getImportId)
			.containsExactly(accepted.getImportId());
		assertThat(metrics.listMetrics(user, null, null, null, null).getData()).singleElement()
			.satisfies((record) -> assertThat(record.getMetrics().getWeight()).isEqualByComparingTo("71"));
	}

	/**
	 * The sync half: a versioned upsert with its outcome, a deletion, the change feed,
	 * and an erasure followed to completion.
	 */
	@Test
	void syncThroughTheGeneratedClient() throws Exception {
		IssuedCredentials credentials = onboard();
		MetricsApi metrics = new MetricsApi(partner(credentials));
		SyncApi sync = new SyncApi(partner(credentials));
		String user = "member-" + UUID.randomUUID();

		MetricsRecord created = metrics.createMetrics(new MetricsRequest().userId(user)
			.clientRecordId("scale-1")
			.clientRecordVersion(1L)
			.metrics(new Metrics().weight(new BigDecimal("70"))), null);
		assertThat(created.getClientRecordId()).isEqualTo("scale-1");
		ApiResponse<MetricsRecord> updated = metrics.createMetricsWithHttpInfo(new MetricsRequest().userId(user)
			.clientRecordId("scale-1")
			.clientRecordVersion(2L)
			.metrics(new Metrics().weight(new BigDecimal("71"))), null);
		assertThat(updated.getStatusCode()).isEqualTo(200);
		assertThat(updated.getHeaders().get("record-outcome")).containsExactly("updated");
		assertThat(updated.getData().getId()).isEqualTo(created.getId());
		assertThat(updated.getData().getClientRecordVersion()).isEqualTo(2L);
		metrics.deleteMetrics(created.getId().toString());

		ChangePage page = sync.listChanges(100, null);
		assertThat(page.getData()).extracting(Change::getKind)
			.containsExactly(Change.KindEnum.CREATED, Change.KindEnum.UPDATED, Change.KindEnum.DELETED);
		assertThat(page.getHasMore()).isFalse();

		Erasure erasure = sync.eraseUser(user);
		assertThat(erasure.getStatus()).isEqualTo(Erasure.StatusEnum.PENDING);
		Instant deadline = Instant.now().plusSeconds(20);
		while (sync.getErasure(erasure.getErasureId().toString()).getStatus() != Erasure.StatusEnum.COMPLETED
				&& Instant.now().isBefore(deadline)) {
			Thread.sleep(50);
		}
		assertThat(sync.getErasure(erasure.getErasureId().toString()).getStatus())
			.isEqualTo(Erasure.StatusEnum.COMPLETED);
		ChangePage after = sync.listChanges(100, page.getNextCursor());
		assertThat(after.getData()).extracting(Change::getKind).containsExactly(Change.KindEnum.USER_ERASED);
		assertThat(sync.listChanges(100, null).getData()).extracting(Change::getKind)
			.containsExactly(Change.KindEnum.USER_ERASED);
	}

	/**
	 * Webhooks: an endpoint added, changed and listed, a test message received and read
	 * as the document's message, its delivery in the log, the secret rotated, the
	 * endpoint deleted.
	 */
	@Test
	void webhooksThroughTheGeneratedClient() throws Exception {
		IssuedCredentials credentials = onboard();
		WebhooksApi webhooks = new WebhooksApi(partner(credentials));
		try (WebhookReceiver receiver = new WebhookReceiver()) {
			WebhookWithSecret created = webhooks.createWebhook(new WebhookRequest().url(receiver.url())
				.events(List.of(WebhookEvent.METRICS_CREATED, WebhookEvent.USER_ERASED)));
			assertThat(created.getSecret()).startsWith("whsec_");
			assertThat(created.getStatus()).isEqualTo(WebhookWithSecret.StatusEnum.ENABLED);
			String id = created.getWebhookId().toString();
			Webhook changed = webhooks.updateWebhook(id, new WebhookPatch().description("nightly sync"));
			assertThat(changed.getDescription()).isEqualTo("nightly sync");
			assertThat(changed.getEvents()).containsExactly(WebhookEvent.METRICS_CREATED, WebhookEvent.USER_ERASED);
			assertThat(webhooks.listWebhooks(10, null).getData()).extracting(Webhook::getWebhookId)
				.containsExactly(created.getWebhookId());
			WebhookDelivery test = webhooks.testWebhook(id);
			WebhookReceiver.Received received = Eventually
				.eventually(Duration.ofSeconds(10), receiver::received, (got) -> !got.isEmpty())
				.get(0);
			WebhookMessage message = new ApiClient().getObjectMapper().readValue(received.body(), WebhookMessage.class);
			assertThat(message.getType()).isEqualTo(WebhookMessageType.WEBHOOK_TEST);
			assertThat(message.getCursor()).isNull();
			WebhookDeliveryPage log = Eventually.eventually(Duration.ofSeconds(10), () -> {
				try {
					return webhooks.listWebhookDeliveries(id, 10, null, "succeeded");
				}
				catch (ApiException ex) {
					throw new IllegalStateException(ex);
				}
			}, (page) -> !page.getData().isEmpty());
			assertThat(log.getData()).singleElement().satisfies((delivery) -> {
				assertThat(delivery.getDeliveryId()).isEqualTo(test.getDeliveryId());
				assertThat(delivery.getWebhookMessageId()).isEqualTo(received.header("webhook-id"));
				assertThat(delivery.getLastStatusCode()).isEqualTo(204);
			});
			WebhookWithSecret rotated = webhooks.rotateWebhookSecret(id);
			assertThat(rotated.getSecret()).isNotEqualTo(created.getSecret());
			assertThat(rotated.getPreviousSecretExpiresAt()).isNotNull();
			webhooks.deleteWebhook(id);
			assertThat(webhooks.listWebhooks(10, null).getData()).isEmpty();
		}
	}

	private IssuedCredentials onboard() throws ApiException {
		Registration registration = new OnboardingApi(client((request) -> {
		})).registerPartner(new RegistrationRequest().email("journey+" + UUID.randomUUID() + "@gym.example")
			.partnerName("Journey Gym"));
		return admin().approveRegistration(registration.getRegistrationId().toString(), new ApproveRequest());
	}

	/** Every pending registration, page by page with the cursor. */
	private static List<AdminRegistration> pendingRegistrations(AdministrationApi admin) throws ApiException {
		List<AdminRegistration> pending = new ArrayList<>();
		String cursor = null;
		int pages = 0;
		do {
			RegistrationPage page = admin.listRegistrations(RegistrationStatus.PENDING, 5, cursor);
			pending.addAll(page.getData());
			cursor = page.getNextCursor();
			pages++;
		}
		while (cursor != null && pages < 1000);
		return pending;
	}

	private AdministrationApi admin() {
		return new AdministrationApi(client((request) -> request.setHeader("Authorization", "Bearer " + ADMIN_TOKEN)));
	}

	private ApiClient partner(IssuedCredentials credentials) {
		return client((request) -> request.setHeader("x-api-key", credentials.getApiKey()));
	}

	/**
	 * A generated client for this service. Its list calls accept JSON and NDJSON; a
	 * partner that wants pages asks for JSON only.
	 */
	private ApiClient client(Consumer<HttpRequest.Builder> authentication) {
		ApiClient client = new ApiClient();
		client.updateBaseUri("http://localhost:" + this.port);
		client.setReadTimeout(Duration.ofSeconds(30));
		client.setObjectMapper(((JsonMapper) client.getObjectMapper()).rebuild()
			.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build());
		client.setRequestInterceptor((request) -> {
			authentication.accept(request);
			Optional<String> accept = request.copy().build().headers().firstValue("Accept");
			if (accept.isPresent() && accept.get().contains("application/x-ndjson")) {
				request.setHeader("Accept", "application/json");
			}
		});
		return client;
	}

	private static Problem problem(ApiException refused, int status) throws Exception {
		assertThat(refused).isNotNull();
		assertThat(refused.getCode()).isEqualTo(status);
		assertThat(refused.getResponseHeaders().firstValue("Content-Type")).hasValue("application/problem+json");
		return ((JsonMapper) ApiClient.createDefaultObjectMapper()).rebuild()
			.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build()
			.readValue(refused.getResponseBody(), Problem.class);
	}

}
