package com.healthpartner.api.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** A partner following the change feed in a test. */
public final class Feed {

	public static final String PATH = "/api/v1/health/changes";

	private static final ParameterizedTypeReference<Map<String, Object>> MAP = new ParameterizedTypeReference<>() {
	};

	private final WebTestClient client;

	private final String apiKey;

	private String cursor;

	public Feed(WebTestClient client, String apiKey) {
		this.client = client;
		this.apiKey = apiKey;
	}

	/** One page after the stored cursor; the cursor moves on. */
	@SuppressWarnings("unchecked")
	public Map<String, Object> next(int limit) {
		Map<String, Object> page = this.client.get()
			.uri((this.cursor != null) ? PATH + "?limit={l}&cursor={c}" : PATH + "?limit={l}", limit, this.cursor)
			.header("x-api-key", this.apiKey)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(MAP)
			.returnResult()
			.getResponseBody();
		assertThat(page).isNotNull();
		assertThat(page.get("next_cursor")).isNotNull();
		this.cursor = (String) page.get("next_cursor");
		return page;
	}

	/** Every change available now, page by page. */
	@SuppressWarnings("unchecked")
	public List<Map<String, Object>> drain(int limit) {
		List<Map<String, Object>> changes = new ArrayList<>();
		Map<String, Object> page;
		do {
			page = next(limit);
			changes.addAll((List<Map<String, Object>>) page.get("data"));
		}
		while (Boolean.TRUE.equals(page.get("has_more")));
		return changes;
	}

	/**
	 * The changes available within five seconds, page by page, until there are at least
	 * {@code count}: a change is listed once every transaction older than its write has
	 * ended, within about a second of the write's answer.
	 */
	public List<Map<String, Object>> drain(int limit, int count) {
		List<Map<String, Object>> changes = new ArrayList<>();
		Eventually.eventually(Duration.ofSeconds(5), () -> {
			changes.addAll(drain(limit));
			return changes.size() >= count;
		});
		return changes;
	}

	/**
	 * Waits until a partner's feed lists its {@code count} changes, read from its start
	 * by a feed of its own, and asserts it lists exactly those: a test's own reads then
	 * find every write it made listed, and none twice.
	 */
	public static void awaitListed(WebTestClient client, String apiKey, int count) {
		assertThat(new Feed(client, apiKey).drain(100, count)).hasSize(count);
	}

	public String cursor() {
		return this.cursor;
	}

}
