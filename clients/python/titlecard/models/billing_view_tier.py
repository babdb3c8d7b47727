from enum import StrEnum


class BillingViewTier(StrEnum):
    AGENCY = "agency"
    FREE = "free"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
