package com.healthpartner.api.edge;

import reactor.netty.NettyPipeline;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.healthpartner.api.problem.ProblemWriter;

/**
 * Puts {@link HttpEdge} into every connection's pipeline, right behind Netty's HTTP
 * decoder and in front of Reactor Netty's request handling.
 */
@Configuration(proxyBeanMethods = false)
class EdgeConfiguration {

	static final String HANDLER = "healthPartner.httpEdge";

	@Bean
	NettyServerCustomizer httpEdge(EdgeProperties properties, ProblemWriter problems,
			ObjectProvider<EarlyAnswers> early) {
		EarlyAnswers answers = early.getIfAvailable();
		return (server) -> server.doOnChannelInit((observer, channel, address) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				channel.pipeline()
					.addAfter(NettyPipeline.HttpCodec, HANDLER, new HttpEdge(properties, problems, answers));
			}
		});
	}

}
