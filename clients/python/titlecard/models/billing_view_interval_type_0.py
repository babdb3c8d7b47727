from enum import StrEnum


class BillingViewIntervalType0(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
