"""The game server, whole on one process; ``dos.house`` puts it together with what plugs in.

- the application: ``app`` (``create_app``, ``serve``), one router per resource
  (``table_routes``, ``games``, ``players``, ``account_routes``, ``reviews``, ``learn``,
  ``health``, ``client_routes``), the HTTP guards (``http``, ``bodies``, ``errors``, ``limits``);
- the protocol (``docs/protocol.md``): ``protocol``, one module per direction
  (``client_messages``, ``server_messages``, ``http_bodies``), the WebSocket's
  ``conversation`` over ``sockets`` and ``connections``;
- the tables: ``service`` (every table held), ``tables`` (a table: its lock, life cycle and
  ``submit``) and its parts (``current_game``, ``audience``, ``broadcasts``, ``log_pages``,
  ``seating``, ``stand_ins``, ``turn_timer``, ``reaction``, ``pause``, ``handover``, ``bots``,
  ``chat``, ``hints``);
- people: ``auth`` (signed tokens), ``accounts`` and ``passkeys``, ``names``;
- storage: ``storage`` (the database's writer), ``table_store``, ``account_store``,
  ``models``, ``schema`` and ``migrations``, ``fencing``;
- what a server of many replaces (``dos.cluster``): ``ownership``, ``routing``,
  ``handover_store``, ``bus``, ``jobs``, each with its implementation for one process;
- for programs holding a seat: ``seat_service``, the API the agents use.
"""
