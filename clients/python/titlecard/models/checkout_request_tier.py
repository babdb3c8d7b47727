from enum import StrEnum


class CheckoutRequestTier(StrEnum):
    AGENCY = "agency"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
