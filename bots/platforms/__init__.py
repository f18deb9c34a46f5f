"""Chat platform adapters: each turns platform updates into `bots.messages.Incoming`, calls the
service, and sends back the `bots.messages.Outgoing` it returns. Platform libraries are imported
only by the adapter modules themselves (`bots.platforms.telegram`, `bots.platforms.discord`), so
importing this package or `bots.platforms.common` stays cheap.
"""
