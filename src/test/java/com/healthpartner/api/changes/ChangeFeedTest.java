package com.healthpartner.api.changes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Result;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.healthpartner.api.support.Feed;
import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;
import com.healthpartner.api.support.Partners.Credentials;

import static com.healthpartner.api.support.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/v1/health/changes}: its shape, order, paging, scopes, cursors (altered,
 * another partner's, expired) and the visibility horizon that keeps a cursor from passing
 * a change whose transaction has not ended.
 */
class ChangeFeedTest extends PartnerTest {

	@Autowired
	private ChangeRetention retention;

	@Autowired
	private ConnectionFactory connections;

	@Autowired
	private ChangeRepository changes;

	@Autowired
	private ReactiveTransactionManager transactions;

	@Test
	@SuppressWarnings("unchecked")
	void createdUpdatedAndDeletedChangesAreListedInOrderWithTheRecordAsItWas() {
		Feed feed = new Feed(this.client, this.partner.apiKey());
		assertThat(feed.drain(100)).isEmpty();
		Map<String, Object> first = this.api
			.create(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + this.user
					+ "\", \"client_record_id\": \"s1\", \"client_record_version\": 1, \"metrics\": {\"weight\": 70}}");
		this.api
			.post(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + this.user
					+ "\", \"client_record_id\": \"s1\", \"client_record_version\": 2, \"metrics\": {\"weight\": 71}}")
			.expectStatus()
			.isOk();
		Map<String, Object> assessment = this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": 1}}");
		this.client.delete()
			.uri(HealthApi.METRICS + "/" + first.get("id"))
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isNoContent();

		List<Map<String, Object>> changes = feed.drain(100, 4);
		assertThat(changes).extracting((change) -> change.get("kind"))
			.containsExactly("created", "updated", "created", "deleted");
		assertThat(changes).extracting((change) -> change.get("resource"))
			.containsExactly("metrics", "metrics", "assessments", "metrics");
		assertThat(changes).extracting((change) -> change.get("id"))
			.containsExactly(first.get("id"), first.get("id"), assessment.get("id"), first.get("id"));
		assertThat(changes).extracting((change) -> change.get("client_record_id"))
			.containsExactly("s1", "s1", null, "s1");
		assertThat(((Map<String, Object>) changes.get(0).get("record")).get("metrics")).isEqualTo(Map.of("weight", 70));
		assertThat(((Map<String, Object>) changes.get(1).get("record")).get("metrics")).isEqualTo(Map.of("weight", 71));
		assertThat(changes.get(2).get("record")).isEqualTo(assessment);
		assertThat(changes.get(3).get("record")).isNull();
		assertThat(changes).extracting((change) -> change.get("change_id")).doesNotHaveDuplicates();
		// nothing new: the same answer, an empty page with a cursor to keep
		Map<String, Object> empty = feed.next(100);
		assertThat((List<Object>) empty.get("data")).isEmpty();
		assertThat(empty.get("has_more")).isEqualTo(false);
	}

	@Test
	@SuppressWarnings("unchecked")
	void pagesSayWhetherMoreExistAndNextCursorIsNeverNull() {
		for (int i = 0; i < 5; i++) {
			this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": " + i + "}}");
		}
		Feed.awaitListed(this.client, this.partner.apiKey(), 5);
		Feed feed = new Feed(this.client, this.partner.apiKey());
		Map<String, Object> page = feed.next(2);
		assertThat((List<Object>) page.get("data")).hasSize(2);
		assertThat(page.get("has_more")).isEqualTo(true);
		assertThat((List<Object>) feed.next(2).get("data")).hasSize(2);
		Map<String, Object> last = feed.next(2);
		assertThat((List<Object>) last.get("data")).hasSize(1);
		assertThat(last.get("has_more")).isEqualTo(false);
	}

	@Test
	void theFeedListsOnlyTheResourcesTheKeyReadsAndNeedsAReadScope() {
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
		this.api.create(HealthApi.ASSESSMENTS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"responses\": {\"q\": 1}}");
		Credentials metricsOnly = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", List.of("metrics:read")));
		Feed.awaitListed(this.client, this.partner.apiKey(), 2);
		assertThat(new Feed(this.client, metricsOnly.apiKey()).drain(100)).extracting((c) -> c.get("resource"))
			.containsExactly("metrics");
		Credentials writeOnly = this.partners.issueKey(this.partner.partnerId(),
				Map.of("scopes", List.of("metrics:write", "assessments:write")));
		Expect.problem(this.client.get().uri(Feed.PATH).header("x-api-key", writeOnly.apiKey()).exchange(),
				HttpStatus.FORBIDDEN, "insufficient_scope");
	}

	@Test
	void anAlteredCursorOrAnotherPartnersIsRefusedNamingCursor() {
		Feed feed = new Feed(this.client, this.partner.apiKey());
		feed.next(10);
		String cursor = feed.cursor();
		String altered = ((cursor.charAt(0) == 'A') ? "B" : "A") + cursor.substring(1);
		Credentials other = this.partners.onboard();
		for (String[] attempt : new String[][] { { this.partner.apiKey(), altered }, { other.apiKey(), cursor },
				{ this.partner.apiKey(), "!!" } }) {
			Expect
				.problem(this.client.get()
					.uri(Feed.PATH + "?cursor={c}", attempt[1])
					.header("x-api-key", attempt[0])
					.exchange(), HttpStatus.BAD_REQUEST, "validation_failed")
				.jsonPath("$.errors[0].field")
				.isEqualTo("cursor");
		}
		this.client.get()
			.uri(Feed.PATH + "?limit=0")
			.header("x-api-key", this.partner.apiKey())
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("limit");
	}

	@Test
	void aCursorOlderThanTheChangesKeptIsGone() {
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 71}}");
		Feed.awaitListed(this.client, this.partner.apiKey(), 2);
		Feed feed = new Feed(this.client, this.partner.apiKey());
		feed.next(1);
		String old = feed.cursor();
		this.retention.sweep(this.clock.instant().plusSeconds(1)).block(Duration.ofSeconds(30));
		Expect.problem(this.client.get()
			.uri(Feed.PATH + "?cursor={c}", old)
			.header("x-api-key", this.partner.apiKey())
			.exchange(), HttpStatus.GONE, "cursor_expired");
		// starting again without cursor works, from the oldest change kept
		assertThat(new Feed(this.client, this.partner.apiKey()).drain(100)).isEmpty();
	}

	@Test
	void theCursorDoesNotPassAChangeWhoseTransactionIsStillOpen() {
		Connection held = Mono.from(this.connections.create()).block(Duration.ofSeconds(10));
		assertThat(held).isNotNull();
		try {
			Mono.from(held.beginTransaction()).block(Duration.ofSeconds(10));
			Flux.from(held.createStatement("""
					insert into changes (partner_id, kind, resource, record_id, user_id, changed_at, item)
					values ($1, 'deleted', 'metrics', $2, 'held-user', now(),
					        change_item('deleted', 'metrics', $2, 'held-user', null, api_time(now()), null))
					""").bind("$1", UUID.fromString(this.partner.partnerId())).bind("$2", UUID.randomUUID()).execute())
				.flatMap(Result::getRowsUpdated)
				.blockLast(Duration.ofSeconds(10));
			// a later transaction commits while the first is still open
			Map<String, Object> later = this.api.create(HealthApi.METRICS, this.partner.apiKey(),
					"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
			Feed feed = new Feed(this.client, this.partner.apiKey());
			assertThat(feed.drain(100)).as("nothing is listed past the open transaction").isEmpty();

			Mono.from(held.commitTransaction()).block(Duration.ofSeconds(10));
			List<Map<String, Object>> changes = feed.drain(100, 2);
			assertThat(changes).extracting((change) -> change.get("user_id")).containsExactly("held-user", this.user);
			assertThat(changes.get(1).get("id")).isEqualTo(later.get("id"));
		}
		finally {
			Mono.from(held.close()).block(Duration.ofSeconds(10));
		}
	}

	@Test
	void aPendingErasureHidesTheUsersEarlierChangesFromThePageAndOnlyTheirs() {
		String other = "other-" + this.user;
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + this.user + "\", \"metrics\": {\"weight\": 70}}");
		this.api.create(HealthApi.METRICS, this.partner.apiKey(),
				"{\"user_id\": \"" + other + "\", \"metrics\": {\"weight\": 60}}");
		UUID partnerId = UUID.fromString(this.partner.partnerId());
		eventually(Duration.ofSeconds(5),
				() -> users(this.changes.page(partnerId, "true", 0, 0, 100)).equals(List.of(this.user, other)));

		// an erasure left pending, seen only by this transaction (rolled back, so the
		// worker
		// never carries it out): the page leaves out its user's changes before its
		// cut-off
		TransactionalOperator transaction = TransactionalOperator.create(this.transactions);
		List<String> listed = transaction.execute((status) -> {
			status.setRollbackOnly();
			return this.db.sql("""
					insert into user_erasures (id, partner_id, user_id, status, cutoff, requested_at)
					values (:id, :partnerId, :userId, 'pending', pg_current_xact_id(), now())
					""")
				.bind("id", UUID.randomUUID())
				.bind("partnerId", partnerId)
				.bind("userId", this.user)
				.then()
				.then(this.changes.page(partnerId, "true", 0, 0, 100));
		}).map(ChangeFeedTest::userIds).single().block(Duration.ofSeconds(10));
		assertThat(listed).containsExactly(other);
	}

	private static List<String> users(Mono<ChangeRepository.Slice> page) {
		return userIds(page.block(Duration.ofSeconds(10)));
	}

	private static List<String> userIds(ChangeRepository.Slice slice) {
		return slice.changes().stream().map(ChangeRow::shownUserId).toList();
	}

}
