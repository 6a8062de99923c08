package com.healthpartner.api.webhook;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import com.healthpartner.api.system.LowPriority;

/**
 * Webhooks (docs/operations.md, Webhooks): whether {@code http://} endpoints are allowed
 * ({@code APP_WEBHOOKS_ALLOW_HTTP}, for development), the hosts allowed although they
 * resolve to a non-public address ({@code APP_WEBHOOKS_ALLOWED_HOSTS}, none), how long a
 * message is retried from its first attempt ({@code APP_WEBHOOKS_RETRY_FOR}, 24 h, also
 * how long an endpoint may fail every attempt before it is disabled), how long an attempt
 * may take ({@code APP_WEBHOOKS_TIMEOUT}, 10 s), how much of an answer is read
 * ({@code APP_WEBHOOKS_MAX_RESPONSE_BYTES}, 64KB), how many endpoints a partner may have
 * ({@code APP_WEBHOOKS_MAX_PER_PARTNER}, 5), how many attempts an instance has in flight
 * ({@code APP_WEBHOOKS_CONCURRENCY}, 256) and how often it looks for new changes and due
 * deliveries ({@code APP_WEBHOOKS_POLL_INTERVAL}, 100 ms); while partners' requests fill
 * the cores ({@code web/CpuLoad}), the share of the time its statements reading and
 * recording messages take ({@code APP_WEBHOOKS_BUSY_SHARE}, 0.01) and how many users'
 * messages it sends at once ({@code APP_WEBHOOKS_BUSY_CONCURRENCY}, 8); and the CPU
 * priority of the threads that send ({@code APP_WEBHOOKS_NICE}, Linux's nice value, 19:
 * the lowest; 0: as the requests').
 */
@ConfigurationProperties("app.webhooks")
public record WebhookProperties(@DefaultValue("false") boolean allowHttp, @DefaultValue List<String> allowedHosts,
		@DefaultValue("24h") Duration retryFor, @DefaultValue("10s") Duration timeout,
		@DefaultValue("64KB") DataSize maxResponseBytes, @DefaultValue("5") int maxPerPartner,
		@DefaultValue("256") int concurrency, @DefaultValue("100ms") Duration pollInterval,
		@DefaultValue("0.01") double busyShare, @DefaultValue("8") int busyConcurrency, @DefaultValue("19") int nice) {

	public WebhookProperties {
		allowedHosts = allowedHosts.stream().map(String::trim).filter((host) -> !host.isEmpty()).toList();
		if (retryFor.toSeconds() < 1) {
			throw new IllegalArgumentException("APP_WEBHOOKS_RETRY_FOR must be at least 1s");
		}
		if (timeout.toMillis() < 100 || timeout.toSeconds() > 60) {
			throw new IllegalArgumentException("APP_WEBHOOKS_TIMEOUT must be between 100ms and 60s");
		}
		if (maxResponseBytes.toBytes() < 1) {
			throw new IllegalArgumentException("APP_WEBHOOKS_MAX_RESPONSE_BYTES must be at least 1B");
		}
		if (maxPerPartner < 1 || maxPerPartner > 100) {
			throw new IllegalArgumentException("APP_WEBHOOKS_MAX_PER_PARTNER must be between 1 and 100");
		}
		if (concurrency < 1 || concurrency > 10_000) {
			throw new IllegalArgumentException("APP_WEBHOOKS_CONCURRENCY must be between 1 and 10000");
		}
		if (pollInterval.toMillis() < 10) {
			throw new IllegalArgumentException("APP_WEBHOOKS_POLL_INTERVAL must be at least 10ms");
		}
		if (!(busyShare > 0 && busyShare <= 1)) {
			throw new IllegalArgumentException("APP_WEBHOOKS_BUSY_SHARE must be above 0 and at most 1");
		}
		if (busyConcurrency < 1 || busyConcurrency > concurrency) {
			throw new IllegalArgumentException(
					"APP_WEBHOOKS_BUSY_CONCURRENCY must be between 1 and APP_WEBHOOKS_CONCURRENCY");
		}
		if (nice < 0 || nice > LowPriority.LOWEST) {
			throw new IllegalArgumentException("APP_WEBHOOKS_NICE must be between 0 and 19");
		}
	}

}
