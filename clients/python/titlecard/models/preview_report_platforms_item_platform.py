from enum import StrEnum


class PreviewReportPlatformsItemPlatform(StrEnum):
    BLUESKY = "bluesky"
    DISCORD = "discord"
    FACEBOOK = "facebook"
    IMESSAGE = "imessage"
    LINKEDIN = "linkedin"
    MASTODON = "mastodon"
    SLACK = "slack"
    TELEGRAM = "telegram"
    WHATSAPP = "whatsapp"
    X = "x"

    def __str__(self) -> str:
        return str(self.value)
