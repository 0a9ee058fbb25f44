"""Players and their accounts: guest tokens (``auth``), accounts with passkeys and recovery
codes (``accounts``, ``account_store``, ``passkeys``) and the bodies of their requests."""
