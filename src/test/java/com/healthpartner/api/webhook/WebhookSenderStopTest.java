package com.healthpartner.api.webhook;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.support.ServiceInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping the sender of webhooks ends only once the loops of its requests to endpoints
 * have stopped: the application does not finish stopping (and shut its logging down)
 * while they still run.
 */
class WebhookSenderStopTest extends IntegrationTest {

	@Test
	void stoppingEndsOnceTheLoopsOfTheRequestsToEndpointsHaveStopped() {
		try (ServiceInstance instance = ServiceInstance.start(Map.of())) {
			WebhookSender sender = instance.context().getBean(WebhookSender.class);
			List<EventExecutor> loops = new ArrayList<>();
			sender.loops().onClient(LoopResources.DEFAULT_NATIVE).forEach(loops::add);
			assertThat(loops).isNotEmpty().noneMatch(EventExecutor::isShuttingDown);
			CompletableFuture<Boolean> loopsStoppedWhenDone = new CompletableFuture<>();

			sender.stop(() -> loopsStoppedWhenDone.complete(loops.stream().allMatch(EventExecutor::isTerminated)));

			assertThat(loopsStoppedWhenDone).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
			assertThat(sender.isRunning()).isFalse();
		}
	}

}
