package com.healthpartner.api.metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import com.healthpartner.api.support.Expect;
import com.healthpartner.api.support.HealthApi;
import com.healthpartner.api.support.PartnerTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listing a user's metrics: keyset pages in (recorded_at, id) order, inclusive date
 * filters in any time zone, cursors bound to their query, and the NDJSON export.
 */
class MetricListingTest extends PartnerTest {

	private static final String LIST = HealthApi.METRICS + "?user_id={user}";

	@Test
	void pagesFollowEachOtherWithoutGapOrDuplicateAlsoForEqualTimes() {
		List<String> ids = new ArrayList<>();
		// seven records at two equal times, submitted out of order
		for (String at : List.of("2026-03-02T10:00:00Z", "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z",
				"2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-01T10:00:00Z")) {
			ids.add((String) record(at, 70).get("id"));
		}
		Map<String, Object> first = this.api.page(this.partner.apiKey(), LIST + "&limit=3", this.user);
		assertThat((List<?>) first.get("data")).hasSize(3);
		assertThat(first.get("next_cursor")).isInstanceOf(String.class);

		List<Map<String, Object>> all = this.api.allPages(this.partner.apiKey(), LIST + "&limit=2", this.user);
		assertThat(all).extracting((r) -> r.get("id")).doesNotHaveDuplicates().hasSameElementsAs(ids);
		assertThat(all).extracting((r) -> (String) r.get("recorded_at"))
			.containsExactly("2026-03-01T10:00:00.000Z", "2026-03-01T10:00:00.000Z", "2026-03-01T10:00:00.000Z",
					"2026-03-01T10:00:00.000Z", "2026-03-02T10:00:00.000Z", "2026-03-02T10:00:00.000Z",
					"2026-03-02T10:00:00.000Z");
		assertThat(all.subList(0, 4)).extracting((r) -> (String) r.get("id")).isSorted();
		assertThat(all.subList(4, 7)).extracting((r) -> (String) r.get("id")).isSorted();

		// a last page that is exactly full says so: no cursor to an empty page
		Map<String, Object> exact = this.api.page(this.partner.apiKey(), LIST + "&limit=7", this.user);
		assertThat((List<?>) exact.get("data")).hasSize(7);
		assertThat(exact).containsEntry("next_cursor", null);
	}

	@Test
	void anUnknownUserHasAnEmptyListAndUserIdIsRequired() {
		Map<String, Object> page = this.api.page(this.partner.apiKey(), LIST, "nobody-" + UUID.randomUUID());
		assertThat(page).containsEntry("data", List.of()).containsEntry("next_cursor", null);
		this.api.get(this.partner.apiKey(), HealthApi.METRICS)
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("user_id");
		this.api.get(this.partner.apiKey(), LIST + "&limit={limit}", "u", "1001")
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("limit");
		this.api.get(this.partner.apiKey(), LIST, "x".repeat(129))
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("user_id");
	}

	@Test
	void dateFiltersIncludeBothEndsInUtcDaysOrAtExactOffsets() {
		record("2026-04-30T23:59:59.999Z", 1);
		record("2026-05-01T00:00:00.000Z", 2);
		record("2026-05-01T23:59:59.999Z", 3);
		record("2026-05-02T00:00:00.000Z", 4);
		record("2026-05-02T07:00:00.000Z", 5);

		assertThat(weights("&start_date=2026-05-01&end_date=2026-05-01")).containsExactly(2, 3);
		assertThat(weights("&start_date=2026-05-01")).containsExactly(2, 3, 4, 5);
		assertThat(weights("&end_date=2026-05-01")).containsExactly(1, 2, 3);
		// date-times are inclusive to the millisecond, whatever their offset
		assertThat(
				weights("&start_date={s}&end_date={e}", "2026-05-01T01:59:59.999+02:00", "2026-05-02T09:00:00+02:00"))
			.containsExactly(1, 2, 3, 4, 5);
		assertThat(weights("&start_date={s}&end_date={e}", "2026-05-01T00:00:00.001Z", "2026-05-01T19:59:59.999-04:00"))
			.containsExactly(3);
		assertThat(weights("&start_date={s}&end_date={e}", "2026-05-02T07:00:00Z", "2026-05-02T07:00:00Z"))
			.containsExactly(5);
		// an unencoded + of an offset arrives as a space and is still understood
		assertThat(weights("&start_date=2026-05-02T08:00:00+01:00")).containsExactly(5);
	}

	@Test
	void lowercaseTAndZOfRfc3339AreAcceptedInRecordedAtAndDateFilters() {
		assertThat(record("2026-05-01t08:00:00z", 1).get("recorded_at")).isEqualTo("2026-05-01T08:00:00.000Z");
		assertThat(record("2026-05-01t10:30:00.25+02:00", 2).get("recorded_at")).isEqualTo("2026-05-01T08:30:00.250Z");
		record("2026-05-01T09:00:00Z", 3);

		assertThat(weights("&start_date={s}&end_date={e}", "2026-05-01t08:00:00.001z", "2026-05-01t11:00:00+02:00"))
			.containsExactly(2, 3);
		assertThat(weights("&end_date={e}", "2026-05-01t08:00:00z")).containsExactly(1);
	}

	@Test
	void badDatesAndReversedRangesAreRefused() {
		for (String bad : List.of("2026-13-01", "2026-00-10", "2026-02-30", "2026-04-31", "2025-02-29", "yesterday",
				"2026-05-01T08:00:00", "2026/05/01", "20260501", "2026-05-01T08:00Z")) {
			Expect
				.problem(this.api.get(this.partner.apiKey(), LIST + "&start_date={s}", this.user, bad),
						HttpStatus.BAD_REQUEST, "validation_failed")
				.jsonPath("$.errors[0].field")
				.isEqualTo("start_date");
		}
		this.api.get(this.partner.apiKey(), LIST + "&end_date=never", this.user)
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.errors[0].field")
			.isEqualTo("end_date");
		Expect.problem(
				this.api.get(this.partner.apiKey(), LIST + "&start_date=2026-05-02&end_date=2026-05-01", this.user),
				HttpStatus.BAD_REQUEST, "invalid_date_range");
		Expect.problem(
				this.api.get(this.partner.apiKey(), LIST + "&start_date={s}&end_date={e}", this.user,
						"2026-05-01T10:00:00+02:00", "2026-05-01T07:59:59Z"),
				HttpStatus.BAD_REQUEST, "invalid_date_range");
	}

	@Test
	void aCursorOnlyWorksForItsOwnQuery() {
		for (int day = 1; day <= 3; day++) {
			record("2026-06-0" + day + "T12:00:00Z", day);
		}
		String query = LIST + "&start_date=2026-06-01&limit=1";
		String cursor = (String) this.api.page(this.partner.apiKey(), query, this.user).get("next_cursor");
		this.api.page(this.partner.apiKey(), query + "&cursor={c}", this.user, cursor);
		for (String other : List.of(LIST + "&limit=1", LIST + "&start_date=2026-06-02&limit=1",
				LIST + "&start_date=2026-06-01&end_date=2026-06-30")) {
			Expect
				.problem(this.api.get(this.partner.apiKey(), other + "&cursor={c}", this.user, cursor),
						HttpStatus.BAD_REQUEST, "validation_failed")
				.jsonPath("$.errors[0].field")
				.isEqualTo("cursor");
		}
		this.api.get(this.partner.apiKey(), query + "&cursor={c}", "someone-else", cursor)
			.expectStatus()
			.isBadRequest();
		this.api.get(this.partner.apiKey(), HealthApi.ASSESSMENTS + "?user_id={u}&cursor={c}", this.user, cursor)
			.expectStatus()
			.isBadRequest();
		String tampered = cursor.substring(0, 5) + ((cursor.charAt(5) == 'A') ? 'B' : 'A') + cursor.substring(6);
		for (String bad : List.of(tampered, "", "not a cursor", "%%%")) {
			this.api.get(this.partner.apiKey(), query + "&cursor={c}", this.user, bad)
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.errors[0].field")
				.isEqualTo("cursor");
		}
	}

	@Test
	void ndjsonStreamsEveryMatchingRecordInOrderFromTheCursorOn() {
		for (int i = 1; i <= 5; i++) {
			record("2026-07-0" + i + "T08:00:00Z", i);
		}
		List<String> lines = this.api.ndjson(this.partner.apiKey(), LIST + "&limit=2", this.user);
		assertThat(lines).hasSize(5);
		List<Map<String, Object>> pages = this.api.allPages(this.partner.apiKey(), LIST, this.user);
		assertThat(lines.get(0)).contains("\"user_id\":\"" + this.user + "\"").contains("\"metrics\":{\"weight\": 1}");
		for (int i = 0; i < 5; i++) {
			assertThat(lines.get(i)).contains("\"id\":\"" + pages.get(i).get("id") + "\"")
				.contains("\"recorded_at\":\"2026-07-0" + (i + 1) + "T08:00:00.000Z\"")
				.contains("\"created_at\":");
		}
		String cursor = (String) this.api
			.page(this.partner.apiKey(), LIST + "&start_date=2026-07-02&limit=2", this.user)
			.get("next_cursor");
		assertThat(
				this.api.ndjson(this.partner.apiKey(), LIST + "&start_date=2026-07-02&cursor={c}", this.user, cursor))
			.hasSize(2)
			.allSatisfy((line) -> assertThat(line).containsAnyOf("2026-07-04", "2026-07-05"));
		assertThat(this.api.ndjson(this.partner.apiKey(), LIST, "nobody")).isEmpty();
		this.client.get()
			.uri(LIST + "&start_date=2026-07-03&end_date=2026-07-01", this.user)
			.header("x-api-key", this.partner.apiKey())
			.accept(MediaType.APPLICATION_NDJSON)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
	}

	@Test
	void theAcceptHeaderChoosesTheRepresentation() {
		record("2026-08-01T08:00:00Z", 1);
		for (String accept : List.of("application/json", "*/*", "application/*",
				"application/json, application/x-ndjson", "application/x-ndjson;q=0.5, application/json")) {
			this.client.get()
				.uri(LIST, this.user)
				.header("x-api-key", this.partner.apiKey())
				.header("Accept", accept)
				.exchange()
				.expectHeader()
				.contentType(MediaType.APPLICATION_JSON);
		}
		for (String accept : List.of("application/x-ndjson", "application/x-ndjson, */*",
				"application/json;q=0.5, application/x-ndjson")) {
			this.client.get()
				.uri(LIST, this.user)
				.header("x-api-key", this.partner.apiKey())
				.header("Accept", accept)
				.exchange()
				.expectHeader()
				.contentType(MediaType.APPLICATION_NDJSON);
		}
		this.client.get()
			.uri(LIST, this.user)
			.header("x-api-key", this.partner.apiKey())
			.header("Accept", "text/csv")
			.exchange()
			.expectStatus()
			.isEqualTo(406)
			.expectBody()
			.jsonPath("$.code")
			.isEqualTo("not_acceptable");
	}

	private Map<String, Object> record(String recordedAt, int weight) {
		return this.api.create(HealthApi.METRICS, this.partner.apiKey(), "{\"user_id\": \"" + this.user
				+ "\", \"metrics\": {\"weight\": " + weight + "}, \"recorded_at\": \"" + recordedAt + "\"}");
	}

	@SuppressWarnings("unchecked")
	private List<Integer> weights(String filters, Object... values) {
		Object[] all = new Object[values.length + 1];
		all[0] = this.user;
		System.arraycopy(values, 0, all, 1, values.length);
		return this.api.allPages(this.partner.apiKey(), LIST + filters, all)
			.stream()
			.map((r) -> ((Map<String, Integer>) r.get("metrics")).get("weight"))
			.toList();
	}

}
