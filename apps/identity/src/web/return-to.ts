export { returnToQuery, safeReturnTo } from '@gatehouse/http';
